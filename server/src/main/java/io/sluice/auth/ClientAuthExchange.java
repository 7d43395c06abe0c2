package io.sluice.auth;

import io.sluice.config.userlist.Secret;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Random;

/**
 * The password part of one client login, as bytes in and bytes out: the challenge the
 * {@link ClientAuthPolicy} chose (cleartext, md5 with a fresh salt, or SCRAM-SHA-256 against
 * the stored secret, a mock one for an unknown user), then the client's answers, ending in
 * {@link Accepted} or {@link Failed}. The session only moves the bytes. Not thread-safe.
 */
public final class ClientAuthExchange {
    /** PgBouncer's default scram_iterations, for verifiers built from plain passwords. */
    public static final int SCRAM_ITERATIONS = 4096;
    private static final SecureRandom SECURE = new SecureRandom();
    /** One per process: repeated probes for an unknown user see a stable SCRAM salt. */
    private static final byte[] MOCK_KEY = randomBytes(32);

    /** What the client's next PasswordMessage ('p') carries. */
    public enum Expect { PASSWORD, SASL_INITIAL, SASL_RESPONSE, NOTHING }

    /** What to do after a step. */
    public sealed interface Step permits Challenge, Accepted, Failed {}

    /** Send AuthenticationRequest {@code code} with {@code data}, then wait for the answer. */
    public record Challenge(int code, byte[] data) implements Step {}

    /**
     * Authenticated. {@code saslFinal}, when not null, is sent first as AuthenticationSASLFinal;
     * {@code clientKey}/{@code serverKey}, when not null, let servers log in as the user by
     * SCRAM pass-through.
     */
    public record Accepted(byte[] saslFinal, byte[] clientKey, byte[] serverKey) implements Step {}

    /** Refused: {@code failure} goes to the client, {@code logReason} to "closing because". */
    public record Failed(AuthFailure failure, String logReason) implements Step {}

    private final ClientAuthDecision.Action action;
    private final String user;
    private final Secret secret;
    private final Random random;
    private final NonceSource nonces;
    private final byte[] mockKey;
    private Expect expect = Expect.NOTHING;
    private byte[] salt;
    private ScramServerExchange scram;
    private byte[] channelBinding;

    /**
     * @param secret the user's stored secret; null for an unknown user
     * @param random source of md5 salts and of salts for verifiers built from plain passwords
     * @param mockKey key of the mock SCRAM salt for unknown users
     */
    public ClientAuthExchange(ClientAuthDecision decision, String user, Secret secret, Random random,
                              NonceSource nonces, byte[] mockKey) {
        this.action = Objects.requireNonNull(decision, "decision").action();
        this.user = Objects.requireNonNull(user, "user");
        this.secret = secret;
        this.random = random;
        this.nonces = nonces;
        this.mockKey = mockKey;
    }

    /** With secure randomness, as logins run in production. */
    public static ClientAuthExchange secure(ClientAuthDecision decision, String user, Secret secret) {
        return new ClientAuthExchange(decision, user, secret, SECURE, NonceSource.secureRandom(), MOCK_KEY);
    }

    /**
     * The client is on TLS and this is its {@code tls-server-end-point} data: a SCRAM challenge
     * then offers SCRAM-SHA-256-PLUS too. Call before {@link #first()}; null changes nothing.
     */
    public ClientAuthExchange channelBinding(byte[] tlsServerEndPoint) {
        channelBinding = tlsServerEndPoint == null ? null : tlsServerEndPoint.clone();
        return this;
    }

    public Expect expects() {
        return expect;
    }

    /** The challenge that opens the exchange. */
    public Step first() {
        switch (action) {
            case REQUEST_CLEARTEXT -> {
                expect = Expect.PASSWORD;
                return new Challenge(3, new byte[0]);
            }
            case REQUEST_MD5 -> {
                expect = Expect.PASSWORD;
                salt = new byte[4];
                random.nextBytes(salt);
                return new Challenge(5, salt.clone());
            }
            case REQUEST_SCRAM -> {
                // an empty secret is "no password accepted", never a verifier for ""
                scram = secret == null || secret.text().isEmpty()
                        ? ScramServerExchange.mock(user, mockKey, SCRAM_ITERATIONS, nonces)
                        : ScramServerExchange.forStoredSecret(user, secret, SCRAM_ITERATIONS,
                                () -> randomBytes(random, ScramCrypto.DEFAULT_SALT_LEN), nonces);
                scram.offerChannelBinding(channelBinding);
                expect = Expect.SASL_INITIAL;
                StringBuilder list = new StringBuilder();
                scram.mechanisms().forEach(m -> list.append(m).append('\0'));
                return new Challenge(10, list.append('\0').toString().getBytes(StandardCharsets.UTF_8));
            }
            default -> throw new IllegalStateException("no password exchange for " + action);
        }
    }

    /** A PasswordMessage answering cleartext or md5. */
    public Step password(String answer) {
        require(Expect.PASSWORD);
        expect = Expect.NOTHING;
        boolean ok = salt == null ? CleartextAuth.verify(secret, user, answer)
                : Md5Auth.verify(secret, user, salt, answer);
        return ok ? new Accepted(null, null, null)
                : new Failed(AuthFailure.wrongPassword(user, AuthFailure.PGBOUNCER_PASSWORD_REASON),
                        AuthFailure.PGBOUNCER_PASSWORD_REASON);
    }

    /** SASLInitialResponse: the mechanism and client-first-message. */
    public Step saslInitial(String mechanism, String clientFirst) {
        require(Expect.SASL_INITIAL);
        expect = Expect.NOTHING;
        try {
            String serverFirst = scram.serverFirst(mechanism, clientFirst);
            expect = Expect.SASL_RESPONSE;
            return new Challenge(11, serverFirst.getBytes(StandardCharsets.UTF_8));
        } catch (ScramException e) {
            return sasl(e.failure());
        }
    }

    /** SASLResponse: client-final-message with the proof. */
    public Step saslResponse(String clientFinal) {
        require(Expect.SASL_RESPONSE);
        expect = Expect.NOTHING;
        try {
            ScramServerExchange.Result r = scram.verifyClientFinal(clientFinal);
            if (r instanceof ScramServerExchange.Success ok) {
                byte[] fin = ok.serverFinalMessage().getBytes(StandardCharsets.UTF_8);
                return ok.passThroughUsable() ? new Accepted(fin, ok.clientKey(), ok.serverKey())
                        : new Accepted(fin, null, null);
            }
            return sasl(((ScramServerExchange.Failure) r).failure());
        } catch (ScramException e) {
            return sasl(e.failure());
        }
    }

    private static Failed sasl(AuthFailure f) {
        return new Failed(f, f.postgresWords() ? f.message() : AuthFailure.PGBOUNCER_SASL_REASON);
    }

    private void require(Expect what) {
        if (expect != what) {
            throw new IllegalStateException("expected " + expect + ", got " + what);
        }
    }

    private static byte[] randomBytes(int n) {
        return randomBytes(SECURE, n);
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
