package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.config.userlist.Secret;
import java.util.Base64;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Both SCRAM sides: RFC 7677 vector, round trips, pass-through, wrong password. */
class ScramExchangeTest {
    static final String CNONCE = "rOprNGfwEbeRWgbNEkqO";
    static final String SNONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    static final String RFC_CLIENT_FIRST = "n,,n=user,r=" + CNONCE;
    static final String RFC_SERVER_FIRST =
            "r=" + CNONCE + SNONCE + ",s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    static final String RFC_CLIENT_FINAL = "c=biws,r=" + CNONCE + SNONCE
            + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    static final String RFC_SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    static ScramServerExchange rfcServer() {
        return new ScramServerExchange("user",
                ScramSecret.fromPassword("pencil", ScramSecretTest.RFC_SALT, 4096),
                NonceSource.fixed(SNONCE));
    }

    /** Deterministic stand-in for SecureRandom. */
    static NonceSource seeded(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return NonceSource.fromBytes(() -> {
            byte[] b = new byte[18];
            r.nextBytes(b);
            return b;
        });
    }

    static Supplier<byte[]> fixedSalt() {
        return () -> new byte[] {5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    }

    @Test
    void rfc7677VectorServerSide() {
        ScramServerExchange server = rfcServer();
        assertThat(server.serverFirst(RFC_CLIENT_FIRST)).isEqualTo(RFC_SERVER_FIRST);
        ScramServerExchange.Result r = server.verifyClientFinal(RFC_CLIENT_FINAL);
        assertThat(r).isInstanceOf(ScramServerExchange.Success.class);
        ScramServerExchange.Success ok = (ScramServerExchange.Success) r;
        assertThat(ok.serverFinalMessage()).isEqualTo(RFC_SERVER_FINAL);
        assertThat(Base64.getEncoder().encodeToString(ok.clientKey()))
                .isEqualTo("pg/JI9Z+hkSpLRa5btpe9GVrDHJcSEN0viVTVXaZbos=");
        assertThat(ok.passThroughUsable()).isTrue();
    }

    @Test
    void rfc7677VectorClientSide() {
        ScramClientExchange client =
                ScramClientExchange.withPassword("pencil", NonceSource.fixed(CNONCE)).userName("user");
        assertThat(client.clientFirst()).isEqualTo(RFC_CLIENT_FIRST);
        assertThat(client.clientFinal(RFC_SERVER_FIRST)).isEqualTo(RFC_CLIENT_FINAL);
        client.verifyServerFinal(RFC_SERVER_FINAL);
    }

    @Test
    void clientSendsEmptyUserNameAndNoChannelBinding() {
        ScramClientExchange client = ScramClientExchange.withPassword("x", NonceSource.fixed("abc"));
        assertThat(client.clientFirst()).isEqualTo("n,,n=,r=abc");
    }

    static ScramServerExchange.Success roundTrip(ScramClientExchange client,
            ScramServerExchange server) {
        String sf = server.serverFirst(client.clientFirst());
        ScramServerExchange.Result r = server.verifyClientFinal(client.clientFinal(sf));
        assertThat(r).isInstanceOf(ScramServerExchange.Success.class);
        ScramServerExchange.Success ok = (ScramServerExchange.Success) r;
        client.verifyServerFinal(ok.serverFinalMessage());
        return ok;
    }

    @Test
    void roundTripWithPasswordAgainstStoredScramSecret() {
        String stored = ScramSecret.fromPassword("s3cret", fixedSalt().get(), 4096).toString();
        ScramServerExchange server = ScramServerExchange.forStoredSecret(
                "alice", Secret.of(stored), 4096, fixedSalt(), seeded(1));
        ScramServerExchange.Success ok =
                roundTrip(ScramClientExchange.withPassword("s3cret", seeded(2)), server);
        assertThat(ok.passThroughUsable()).isTrue();
        assertThat(ok.serverKey()).isEqualTo(ScramSecret.parse(stored).serverKey());
    }

    @Test
    void roundTripAgainstPlainStoredPasswordUsesAdHocVerifier() {
        ScramServerExchange server = ScramServerExchange.forStoredSecret(
                "alice", Secret.of("s3cret"), 1000, fixedSalt(), seeded(1));
        assertThat(server.secret().iterations()).isEqualTo(1000);
        assertThat(server.secret().salt()).isEqualTo(fixedSalt().get());
        ScramServerExchange.Success ok =
                roundTrip(ScramClientExchange.withPassword("s3cret", seeded(2)), server);
        assertThat(ok.passThroughUsable()).isFalse();
    }

    @Test
    void yFlagRoundTrip() {
        ScramServerExchange server = rfcServer();
        String sf = server.serverFirst("y,,n=,r=abc");
        String nonce = sf.substring(2, sf.indexOf(','));
        // Proof is garbage, but the channel-binding check (eSws for 'y') must pass first.
        ScramServerExchange.Result r = server.verifyClientFinal("c=eSws,r=" + nonce
                + ",p=" + Base64.getEncoder().encodeToString(new byte[32]));
        assertThat(r).isInstanceOf(ScramServerExchange.Failure.class);
    }

    @Test
    void passThroughLoginUsesOnlyRecoveredKeys() {
        // PostgreSQL and the pooler hold the same verifier (userlist.txt copy of rolpassword).
        ScramSecret verifier = ScramSecret.fromPassword("s3cret", fixedSalt().get(), 4096);
        ScramServerExchange.Success fromClient = roundTrip(
                ScramClientExchange.withPassword("s3cret", seeded(3)),
                new ScramServerExchange("alice", verifier, seeded(4)));

        // The pooler now logs in to "PostgreSQL" (another server exchange) without the password.
        ScramClientExchange passThrough = ScramClientExchange.withKeys(
                fromClient.clientKey(), fromClient.serverKey(), seeded(5));
        ScramServerExchange postgres = new ScramServerExchange("alice", verifier, seeded(6));
        ScramServerExchange.Success ok = roundTrip(passThrough, postgres);
        assertThat(ok.clientKey()).isEqualTo(fromClient.clientKey());
    }

    @Test
    void passThroughFailsWhenServerHasADifferentVerifier() {
        ScramSecret verifier = ScramSecret.fromPassword("s3cret", fixedSalt().get(), 4096);
        ScramServerExchange.Success fromClient = roundTrip(
                ScramClientExchange.withPassword("s3cret", seeded(3)),
                new ScramServerExchange("alice", verifier, seeded(4)));
        ScramSecret otherSalt = ScramSecret.fromPassword("s3cret", new byte[] {1}, 4096);
        ScramServerExchange postgres = new ScramServerExchange("alice", otherSalt, seeded(6));
        ScramClientExchange passThrough = ScramClientExchange.withKeys(
                fromClient.clientKey(), fromClient.serverKey(), seeded(5));
        String sf = postgres.serverFirst(passThrough.clientFirst());
        assertThat(postgres.verifyClientFinal(passThrough.clientFinal(sf)))
                .isInstanceOf(ScramServerExchange.Failure.class);
    }

    @Test
    void wrongPasswordFailsWith28P01() {
        ScramServerExchange server = ScramServerExchange.forStoredSecret(
                "alice", Secret.of("s3cret"), 4096, fixedSalt(), seeded(1));
        ScramClientExchange client = ScramClientExchange.withPassword("wrong", seeded(2));
        String sf = server.serverFirst(client.clientFirst());
        ScramServerExchange.Result r = server.verifyClientFinal(client.clientFinal(sf));
        assertThat(r).isInstanceOf(ScramServerExchange.Failure.class);
        AuthFailure f = ((ScramServerExchange.Failure) r).failure();
        assertThat(f.sqlState()).isEqualTo("28P01");
        assertThat(f.message()).isEqualTo("password authentication failed for user \"alice\"");
        assertThat(f.isWrongPassword()).isTrue();
    }

    @Test
    void clientRejectsForgedServerSignature() {
        ScramClientExchange client = ScramClientExchange.withPassword("pencil",
                NonceSource.fixed(CNONCE)).userName("user");
        client.clientFirst();
        client.clientFinal(RFC_SERVER_FIRST);
        assertThatThrownBy(() -> client.verifyServerFinal(
                "v=" + Base64.getEncoder().encodeToString(new byte[32])))
                .isInstanceOf(ScramException.class).hasMessage("incorrect server signature");
    }

    @Test
    void passThroughClientDetectsServerWithoutTheVerifier() {
        ScramSecret verifier = ScramSecret.fromPassword("s3cret", fixedSalt().get(), 4096);
        ScramSecret other = ScramSecret.fromPassword("other", fixedSalt().get(), 4096);
        ScramClientExchange client = ScramClientExchange.withKeys(
                ScramCrypto.clientKey(ScramCrypto.saltedPassword("s3cret", fixedSalt().get(), 4096)),
                verifier.serverKey(), seeded(5));
        String cf = client.clientFirst();
        // A server that only knows another verifier signs with the wrong ServerKey.
        ScramServerExchange impostor = new ScramServerExchange("alice", other, seeded(6));
        String sf = impostor.serverFirst(cf);
        client.clientFinal(sf);
        String forged = "v=" + ScramCrypto.b64(ScramCrypto.hmac(other.serverKey(), new byte[1]));
        assertThatThrownBy(() -> client.verifyServerFinal(forged))
                .isInstanceOf(ScramException.class);
    }

    @Test
    void mockExchangeAlwaysFailsWithStableSalt() {
        byte[] key = {42};
        ScramServerExchange m1 = ScramServerExchange.mock("ghost", key, 4096, seeded(1));
        ScramServerExchange m2 = ScramServerExchange.mock("ghost", key, 4096, seeded(2));
        assertThat(m1.secret().salt()).isEqualTo(m2.secret().salt()).hasSize(16);
        ScramClientExchange client = ScramClientExchange.withPassword("anything", seeded(3));
        String sf = m1.serverFirst(client.clientFirst());
        ScramServerExchange.Result r = m1.verifyClientFinal(client.clientFinal(sf));
        assertThat(((ScramServerExchange.Failure) r).failure().message())
                .isEqualTo("password authentication failed for user \"ghost\"");
    }

    @Test
    void md5SecretCannotDoScram() {
        ScramServerExchange server = ScramServerExchange.forStoredSecret(
                "alice", Secret.of(Md5Auth.encrypt("s3cret", "alice")), 4096, fixedSalt(), seeded(1));
        assertThatThrownBy(() -> server.serverFirst("n,,n=,r=abc"))
                .isInstanceOf(ScramException.class)
                .hasMessage("SCRAM authentication failed: user has MD5 secret")
                .extracting(e -> ((ScramException) e).failure().sqlState()).isEqualTo("28P01");
    }

    @Test
    void outOfOrderCallsAreProgrammingErrors() {
        ScramServerExchange server = rfcServer();
        assertThatThrownBy(() -> server.verifyClientFinal(RFC_CLIENT_FINAL))
                .isInstanceOf(IllegalStateException.class);
        ScramClientExchange client = ScramClientExchange.withPassword("p", seeded(1));
        assertThatThrownBy(() -> client.clientFinal(RFC_SERVER_FIRST))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> client.verifyServerFinal(RFC_SERVER_FINAL))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void secureRandomNoncesArePrintableAndDistinct() {
        NonceSource n = NonceSource.secureRandom();
        String a = n.nextNonce();
        assertThat(a).hasSize(24);
        assertThat(ScramMessageReader.isPrintable(a)).isTrue();
        assertThat(n.nextNonce()).isNotEqualTo(a);
        assertThat(ScramSecret.randomSalt()).hasSize(16);
    }
}
