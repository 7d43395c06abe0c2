package io.sluice.auth;

import static io.sluice.auth.ScramServerExchange.MECHANISM;
import static io.sluice.auth.ScramServerExchange.MECHANISM_PLUS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sluice.config.userlist.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.postgresql.shaded.com.ongres.scram.client.ScramClient;
import org.postgresql.shaded.com.ongres.scram.common.StringPreparation;

/**
 * SCRAM-SHA-256-PLUS on Sluice's client side: offered only with binding data, a binding client
 * (pgjdbc's SCRAM library, and Sluice's own client exchange) logs in, and every wrong
 * channel-binding flag, type or datum is refused with PostgreSQL's auth-scram.c words and
 * SQLSTATE, marked for the client to see as such.
 */
class ScramChannelBindingTest {
    /** Stands for the hash of the certificate of the client's TLS session. */
    static final byte[] CERT_HASH = sha256("sluice's certificate");
    static final byte[] OTHER_HASH = sha256("a man in the middle's certificate");

    static byte[] sha256(String s) {
        return ScramCrypto.sha256(s.getBytes(StandardCharsets.UTF_8));
    }

    static ScramServerExchange server(byte[] binding) {
        return ScramServerExchange.forStoredSecret("alice", Secret.of("s3cret"), 4096, ScramExchangeTest.fixedSalt(),
                ScramExchangeTest.seeded(3)).offerChannelBinding(binding);
    }

    static AuthFailure firstFails(byte[] binding, String mechanism, String clientFirst) {
        ScramException e = catchThrowableOfType(() -> server(binding).serverFirst(mechanism, clientFirst),
                ScramException.class);
        assertThat(e).as(mechanism + " " + clientFirst).isNotNull();
        return e.failure();
    }

    @Test
    void plusIsOfferedFirstOnlyWithBindingData() {
        assertThat(server(null).mechanisms()).containsExactly(MECHANISM);
        assertThat(server(CERT_HASH).mechanisms()).containsExactly(MECHANISM_PLUS, MECHANISM);
        var scram = new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_SCRAM, AuthMethod.SCRAM_SHA_256, null);
        ClientAuthExchange tls = new ClientAuthExchange(scram, "alice", Secret.of("s3cret"), new Random(1),
                ScramExchangeTest.seeded(1), new byte[32]);
        // AuthenticationSASL: each name NUL-terminated, then an empty name
        assertThat(new String(((ClientAuthExchange.Challenge) tls.channelBinding(CERT_HASH).first()).data(),
                StandardCharsets.UTF_8)).isEqualTo("SCRAM-SHA-256-PLUS\0SCRAM-SHA-256\0\0");
    }

    @Test
    void pgjdbcsScramClientBindsAndLogsIn() throws Exception {
        ScramClient client = ScramClient.builder()
                .advertisedMechanisms(server(CERT_HASH).mechanisms())
                .username("*")
                .password("s3cret".toCharArray())
                .channelBinding("tls-server-end-point", CERT_HASH)
                .stringPreparation(StringPreparation.POSTGRESQL_PREPARATION)
                .build();
        assertThat(client.getScramMechanism().getName()).isEqualTo(MECHANISM_PLUS);
        ScramServerExchange server = server(CERT_HASH);
        String clientFirst = client.clientFirstMessage().toString();
        assertThat(clientFirst).startsWith("p=tls-server-end-point,,");
        client.serverFirstMessage(server.serverFirst(MECHANISM_PLUS, clientFirst));
        ScramServerExchange.Result r = server.verifyClientFinal(client.clientFinalMessage().toString());
        assertThat(r).isInstanceOf(ScramServerExchange.Success.class);
        client.serverFinalMessage(((ScramServerExchange.Success) r).serverFinalMessage()); // throws if wrong
    }

    @Test
    void sluicesClientExchangeBindsTooAndItsKeysStillPassThrough() {
        ScramSecret secret = ScramSecret.fromPassword("s3cret", ScramExchangeTest.fixedSalt().get(), 4096);
        ScramClientExchange client = ScramClientExchange.withPassword("s3cret", ScramExchangeTest.seeded(5))
                .bindChannel(CERT_HASH);
        assertThat(client.mechanism()).isEqualTo(MECHANISM_PLUS);
        ScramServerExchange server = new ScramServerExchange("alice", secret, ScramExchangeTest.seeded(6))
                .offerChannelBinding(CERT_HASH);
        String fin = client.clientFinal(server.serverFirst(MECHANISM_PLUS, client.clientFirst()));
        String expectedC = Base64.getEncoder().encodeToString(
                ScramCrypto.concat("p=tls-server-end-point,,".getBytes(StandardCharsets.US_ASCII), CERT_HASH));
        assertThat(fin).startsWith("c=" + expectedC + ",r=");
        ScramServerExchange.Success ok = (ScramServerExchange.Success) server.verifyClientFinal(fin);
        client.verifyServerFinal(ok.serverFinalMessage());
        // the recovered ClientKey is the password's, whatever the binding: pass-through works
        assertThat(ok.clientKey()).isEqualTo(ScramCrypto.clientKey(
                ScramCrypto.saltedPassword("s3cret", ScramExchangeTest.fixedSalt().get(), 4096)));
    }

    @Test
    void bindingDataOfAnotherCertificateFailsTheCheckWith28000() {
        ScramClientExchange client = ScramClientExchange.withPassword("s3cret", ScramExchangeTest.seeded(5))
                .bindChannel(OTHER_HASH);
        ScramServerExchange server = server(CERT_HASH);
        String fin = client.clientFinal(server.serverFirst(MECHANISM_PLUS, client.clientFirst()));
        AuthFailure f = catchThrowableOfType(() -> server.verifyClientFinal(fin), ScramException.class).failure();
        assertThat(f).isEqualTo(AuthFailure.postgres("28000", "SCRAM channel binding check failed", null));
    }

    @Test
    void plusWithAnUnboundCbindAttributeFailsTheCheck() {
        ScramServerExchange server = server(CERT_HASH);
        String serverFirst = server.serverFirst(MECHANISM_PLUS, "p=tls-server-end-point,,n=,r=abc");
        String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
        AuthFailure f = catchThrowableOfType(() -> server.verifyClientFinal(
                "c=biws,r=" + nonce + ",p=" + Base64.getEncoder().encodeToString(new byte[32])),
                ScramException.class).failure();
        assertThat(f.sqlState()).isEqualTo("28000");
        assertThat(f.message()).isEqualTo("SCRAM channel binding check failed");
    }

    @Test
    void yWhilePlusIsOfferedIsTheDowngradeThatPostgresRefuses() {
        AuthFailure f = firstFails(CERT_HASH, MECHANISM, "y,,n=,r=abc");
        assertThat(f).isEqualTo(AuthFailure.postgres("28000", "SCRAM channel binding negotiation error",
                "The client supports SCRAM channel binding but thinks the server does not.  "
                        + "However, this server does support channel binding."));
        // without binding on offer 'y' is an honest answer and goes on
        assertThat(server(null).serverFirst(MECHANISM, "y,,n=,r=abc")).startsWith("r=abc");
    }

    @Test
    void pWithoutPlusIs08P01OverTlsAndPlainAlike() {
        for (byte[] binding : new byte[][] {CERT_HASH, null}) {
            AuthFailure f = firstFails(binding, MECHANISM, "p=tls-server-end-point,,n=,r=abc");
            assertThat(f).isEqualTo(AuthFailure.postgres("08P01", "malformed SCRAM message",
                    "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message includes "
                            + "channel binding data."));
        }
    }

    @Test
    void plusWithoutPIs08P01() {
        for (String flag : List.of("n", "y")) {
            AuthFailure f = firstFails(CERT_HASH, MECHANISM_PLUS, flag + ",,n=,r=abc");
            assertThat(f).isEqualTo(AuthFailure.postgres("08P01", "malformed SCRAM message",
                    "The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include channel "
                            + "binding data."));
        }
    }

    @Test
    void anotherBindingTypeIsUnsupportedAndQuotedSafely() {
        assertThat(firstFails(CERT_HASH, MECHANISM_PLUS, "p=tls-unique,,n=,r=abc")).isEqualTo(
                AuthFailure.postgres("08P01", "unsupported SCRAM channel-binding type \"tls-unique\"", null));
        // PostgreSQL's sanitize_str: non-printable as '?', at most 30 characters
        assertThat(firstFails(CERT_HASH, MECHANISM_PLUS, "p=tls\u0001end point" + "x".repeat(40) + ",,n=,r=abc")
                .message()).isEqualTo("unsupported SCRAM channel-binding type \"tls?end?point" + "x".repeat(17) + "\"");
    }

    @Test
    void plusWhenNotOfferedIsAnInvalidMechanismAsInPgBouncerAndPostgres() {
        for (String mechanism : List.of(MECHANISM_PLUS, "SCRAM-SHA-1")) {
            assertThat(firstFails(null, mechanism, "p=tls-server-end-point,,n=,r=abc")).isEqualTo(
                    AuthFailure.postgres("08P01", "client selected an invalid SASL authentication mechanism", null));
        }
    }

    @Test
    void authzidIsStillRefusedAfterABindingHeader() {
        assertThat(firstFails(CERT_HASH, MECHANISM_PLUS, "p=tls-server-end-point,a=bob,n=,r=abc").detail())
                .isEqualTo("client uses authorization identity, but it is not supported");
    }
}
