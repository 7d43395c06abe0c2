package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.config.userlist.Secret;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.shaded.com.ongres.scram.client.ScramClient;
import org.postgresql.shaded.com.ongres.scram.common.StringPreparation;

/**
 * Our server exchange against the SCRAM client that real JDBC applications use (the one
 * shaded into pgjdbc, a test dependency), with PostgreSQL's string preparation. This is an
 * independent implementation, so it also checks the SASLprep simplification on common input.
 * If a pgjdbc upgrade moves the shaded package, adjust the imports.
 */
class ScramPgjdbcInteropTest {
    private static void login(String password, String storedPassword) throws Exception {
        ScramClient client = ScramClient.builder()
                .advertisedMechanisms(List.of(ScramServerExchange.MECHANISM))
                .username("*")
                .password(password.toCharArray())
                .stringPreparation(StringPreparation.POSTGRESQL_PREPARATION)
                .build();
        ScramSecret secret = ScramSecret.fromPassword(storedPassword,
                ScramExchangeTest.fixedSalt().get(), 4096);
        ScramServerExchange server =
                new ScramServerExchange("alice", secret, ScramExchangeTest.seeded(7));
        String serverFirst = server.serverFirst(client.clientFirstMessage().toString());
        client.serverFirstMessage(serverFirst);
        ScramServerExchange.Result r = server.verifyClientFinal(client.clientFinalMessage().toString());
        assertThat(r).isInstanceOf(ScramServerExchange.Success.class);
        // Throws if our server signature is wrong.
        client.serverFinalMessage(((ScramServerExchange.Success) r).serverFinalMessage());
    }

    @Test
    void asciiPassword() throws Exception {
        login("s3cret!", "s3cret!");
    }

    @Test
    void nonAsciiPasswordsPreparedTheSameWay() throws Exception {
        login("p\u00E4ssw\u00F6rd", "p\u00E4ssw\u00F6rd");
        login("\uFF50\uFF41\uFF53\uFF53", "pass"); // full-width letters map to ASCII under NFKC
        login("a\u00A0b", "a b"); // non-ASCII space maps to space
        login("e\u0301", "\u00E9"); // decomposed vs composed
    }

    @Test
    void wrongPasswordIsRejected() throws Exception {
        ScramClient client = ScramClient.builder()
                .advertisedMechanisms(List.of(ScramServerExchange.MECHANISM))
                .username("*")
                .password("wrong".toCharArray())
                .stringPreparation(StringPreparation.POSTGRESQL_PREPARATION)
                .build();
        ScramServerExchange server = ScramServerExchange.forStoredSecret("alice", Secret.of("right"), 4096,
                ScramExchangeTest.fixedSalt(), ScramExchangeTest.seeded(7));
        client.serverFirstMessage(server.serverFirst(client.clientFirstMessage().toString()));
        assertThat(server.verifyClientFinal(client.clientFinalMessage().toString()))
                .isInstanceOf(ScramServerExchange.Failure.class);
    }
}
