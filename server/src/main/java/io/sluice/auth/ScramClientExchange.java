package io.sluice.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * The pooler's side of SCRAM-SHA-256 when it logs in to PostgreSQL, either with a plain
 * password or, for pass-through, with the ClientKey and ServerKey recovered from the client's
 * own SCRAM exchange (no password needed: StoredKey = H(ClientKey)). Pass-through only works if
 * PostgreSQL holds the very same verifier (same salt and iterations) the client proved against.
 *
 * <p>Sequence: {@link #clientFirst()} (SASLInitialResponse data, mechanism {@value
 * ScramServerExchange#MECHANISM}), {@link #clientFinal} with AuthenticationSASLContinue data,
 * {@link #verifyServerFinal} with AuthenticationSASLFinal data. Empty user name, as PgBouncer
 * and libpq send. Without {@link #bindChannel} no channel binding ("n,,", as PgBouncer); with
 * it, {@value ScramServerExchange#MECHANISM_PLUS} bound to the server's certificate, as libpq
 * does when the server offers it over TLS. One instance per login; not thread-safe.
 */
public final class ScramClientExchange {
    private enum State { NEW, FIRST_SENT, FINAL_SENT, DONE }

    private final String password;
    private final byte[] clientKey;
    private final byte[] serverKeyGiven;
    private final NonceSource nonces;
    private String userName = "";
    private byte[] bindingData;

    private State state = State.NEW;
    private String clientNonce;
    private String clientFirstBare;
    private byte[] expectedServerSignature;

    private ScramClientExchange(String password, byte[] clientKey, byte[] serverKey,
            NonceSource nonces) {
        this.password = password;
        this.clientKey = clientKey;
        this.serverKeyGiven = serverKey;
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /** Logs in with a plain password; salt and iterations come from the server. */
    public static ScramClientExchange withPassword(String password, NonceSource nonces) {
        return new ScramClientExchange(Objects.requireNonNull(password, "password"), null, null,
                nonces);
    }

    /** Logs in with keys recovered by {@link ScramServerExchange} (SCRAM pass-through). */
    public static ScramClientExchange withKeys(byte[] clientKey, byte[] serverKey,
            NonceSource nonces) {
        return new ScramClientExchange(null, checkKey(clientKey, "clientKey"),
                checkKey(serverKey, "serverKey"), nonces);
    }

    private static byte[] checkKey(byte[] key, String name) {
        if (Objects.requireNonNull(key, name).length != ScramCrypto.KEY_LEN) {
            throw new IllegalArgumentException(name + " must be 32 bytes");
        }
        return key.clone();
    }

    /** Test hook: the RFC 7677 vector uses {@code n=user}; PostgreSQL clients send {@code n=}. */
    ScramClientExchange userName(String name) {
        this.userName = Objects.requireNonNull(name);
        return this;
    }

    /**
     * Binds the exchange to the TLS channel with this {@code tls-server-end-point} data (the hash
     * of the certificate the server presented). Call before {@link #clientFirst()}; null: none.
     */
    public ScramClientExchange bindChannel(byte[] tlsServerEndPoint) {
        if (state != State.NEW) {
            throw new IllegalStateException("bindChannel after clientFirst");
        }
        bindingData = tlsServerEndPoint == null ? null : tlsServerEndPoint.clone();
        return this;
    }

    /** The mechanism to name in SASLInitialResponse. */
    public String mechanism() {
        return bindingData == null ? ScramServerExchange.MECHANISM : ScramServerExchange.MECHANISM_PLUS;
    }

    private String gs2Header() {
        return bindingData == null ? "n,," : ScramServerExchange.BINDING_GS2_HEADER;
    }

    /** {@code n,,n=,r=<nonce>}, or {@code p=tls-server-end-point,,n=,r=<nonce>} when bound. */
    public String clientFirst() {
        if (state != State.NEW) {
            throw new IllegalStateException("clientFirst already called");
        }
        clientNonce = nonces.nextNonce();
        if (clientNonce.isEmpty() || !ScramMessageReader.isPrintable(clientNonce)) {
            throw new IllegalStateException("nonce source produced a non-printable nonce");
        }
        clientFirstBare = "n=" + userName + ",r=" + clientNonce;
        state = State.FIRST_SENT;
        return gs2Header() + clientFirstBare;
    }

    /**
     * Answers server-first-message with {@code c=biws,r=<nonce>,p=<proof>} (when bound, {@code c=}
     * carries the GS2 header and the certificate hash).
     *
     * @throws ScramException if the server's message is malformed or its nonce does not extend ours
     */
    public String clientFinal(String serverFirstMessage) {
        if (state != State.FIRST_SENT) {
            throw new IllegalStateException("clientFinal before clientFirst or called twice");
        }
        state = State.DONE;
        ScramMessageReader in = new ScramMessageReader(Objects.requireNonNull(serverFirstMessage));
        String nonce = in.attr('r');
        if (nonce.length() <= clientNonce.length() || !nonce.startsWith(clientNonce)) {
            throw ScramException.malformed("invalid SCRAM response (nonce mismatch)");
        }
        byte[] salt = ScramCrypto.unb64(in.attr('s'));
        if (salt == null) {
            throw ScramException.malformed("malformed SCRAM message (invalid salt)");
        }
        String iterText = in.attr('i');
        int iterations = parsePositive(iterText);
        if (iterations < 1) {
            throw ScramException.malformed("malformed SCRAM message (invalid iteration count)");
        }
        if (!in.atEnd()) {
            throw ScramException.malformed(
                    "malformed SCRAM message (garbage at end of server-first-message)");
        }

        byte[] ck;
        byte[] serverKey;
        if (password != null) {
            byte[] salted = SaltedPasswords.of(password, salt, iterations);
            ck = ScramCrypto.clientKey(salted);
            serverKey = ScramCrypto.serverKey(salted);
        } else {
            ck = clientKey;
            serverKey = serverKeyGiven;
        }
        byte[] header = ScramCrypto.utf8(gs2Header());
        byte[] cbindInput = bindingData == null ? header : ScramCrypto.concat(header, bindingData);
        String withoutProof = "c=" + ScramCrypto.b64(cbindInput) + ",r=" + nonce;
        byte[] authMessage = (clientFirstBare + "," + serverFirstMessage + "," + withoutProof)
                .getBytes(StandardCharsets.UTF_8);
        byte[] clientSignature = ScramCrypto.hmac(ScramCrypto.sha256(ck), authMessage);
        byte[] proof = ScramCrypto.xor(ck, clientSignature);
        expectedServerSignature = ScramCrypto.hmac(serverKey, authMessage);
        state = State.FINAL_SENT;
        return withoutProof + ",p=" + ScramCrypto.b64(proof);
    }

    /**
     * Checks server-final-message ({@code v=<signature>}) so a server that does not know the
     * verifier cannot pretend to have authenticated us.
     *
     * @throws ScramException on {@code e=<error>}, a malformed message or a wrong signature
     */
    public void verifyServerFinal(String serverFinalMessage) {
        if (state != State.FINAL_SENT) {
            throw new IllegalStateException("verifyServerFinal before clientFinal or called twice");
        }
        state = State.DONE;
        ScramMessageReader in = new ScramMessageReader(Objects.requireNonNull(serverFinalMessage));
        if (in.peek() == 'e') {
            throw new ScramException(AuthFailure.protocol(
                    "error received from server in SCRAM exchange: " + in.attr('e')));
        }
        byte[] signature = ScramCrypto.unb64(in.attr('v'));
        if (signature == null || signature.length != ScramCrypto.KEY_LEN) {
            throw ScramException.malformed("malformed SCRAM message (malformed server signature)");
        }
        if (!in.atEnd()) {
            throw ScramException.malformed(
                    "malformed SCRAM message (garbage at end of server-final-message)");
        }
        if (!MessageDigest.isEqual(signature, expectedServerSignature)) {
            throw new ScramException(AuthFailure.protocol("incorrect server signature"));
        }
    }


    private static int parsePositive(String text) {
        boolean digits = text.chars().allMatch(c -> c >= '0' && c <= '9');
        if (text.isEmpty() || text.length() > 10 || !digits) {
            return -1;
        }
        long v = Long.parseLong(text);
        return v > Integer.MAX_VALUE ? -1 : (int) v;
    }
}
