package io.sluice.auth;

import io.sluice.config.userlist.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The pooler's side of SCRAM-SHA-256 when it authenticates a client, PostgreSQL flavour:
 * mechanism {@value #MECHANISM}, and {@value #MECHANISM_PLUS} with channel binding
 * {@value #CHANNEL_BINDING_TYPE} when {@link #offerChannelBinding} gave the binding data (the
 * client is on TLS); no authzid, the user name in client-first ignored. The GS2 flag is checked
 * against the mechanism as PostgreSQL's auth-scram.c does, with its words: {@code p} only with
 * PLUS, {@code n}/{@code y} only without, and {@code y} (the client thinks the server cannot
 * bind) refused while binding is on offer, which is how a stripped PLUS is detected.
 *
 * <p>Drive it with the SASL payloads: {@link #serverFirst} for the SASLInitialResponse data
 * (send the result in AuthenticationSASLContinue), then {@link #verifyClientFinal} for the
 * SASLResponse data (on success send the server-final in AuthenticationSASLFinal). Malformed
 * input throws {@link ScramException} (08P01); a wrong proof yields {@link Failure} (28P01).
 *
 * <p>On success the client's ClientKey is recovered (ClientProof XOR ClientSignature) so the
 * pooler can log in to PostgreSQL as this client without its password, as PgBouncer does.
 * One instance per login attempt; not thread-safe.
 */
public final class ScramServerExchange {
    public static final String MECHANISM = "SCRAM-SHA-256";
    public static final String MECHANISM_PLUS = "SCRAM-SHA-256-PLUS";
    /** The one channel binding type PostgreSQL and its clients use (RFC 5929). */
    public static final String CHANNEL_BINDING_TYPE = "tls-server-end-point";
    /** The GS2 header a binding client sends, which begins its cbind-input. */
    static final String BINDING_GS2_HEADER = "p=" + CHANNEL_BINDING_TYPE + ",,";

    /** Outcome of {@link #verifyClientFinal}. */
    public sealed interface Result permits Success, Failure {}

    /**
     * The client proved it knows the password.
     *
     * @param serverFinalMessage {@code v=<ServerSignature>}, for AuthenticationSASLFinal
     * @param clientKey the client's ClientKey, usable for pass-through logins
     * @param serverKey the ServerKey of the verifier used
     * @param passThroughUsable false when the verifier was built ad hoc from a plain password
     *     (random salt) or is a mock; its keys then cannot log in to PostgreSQL. PgBouncer keeps
     *     the keys only when this is true.
     */
    public record Success(String serverFinalMessage, byte[] clientKey, byte[] serverKey,
            boolean passThroughUsable) implements Result {
        public Success {
            clientKey = clientKey.clone();
            serverKey = serverKey.clone();
        }

        @Override
        public byte[] clientKey() {
            return clientKey.clone();
        }

        @Override
        public byte[] serverKey() {
            return serverKey.clone();
        }

        @Override
        public String toString() {
            return "Success[serverFinalMessage=" + serverFinalMessage + ", keys=<hidden>]";
        }
    }

    /** The proof did not match: wrong password (or unknown user, for a mock exchange). */
    public record Failure(AuthFailure failure) implements Result {}

    private enum State { NEW, FIRST_SENT, DONE }

    private final String user;
    private final ScramSecret secret;
    private final boolean passThroughUsable;
    private final boolean mock;
    /** Non-null when the exchange can never succeed for a configuration reason; the log detail. */
    private final String doomed;
    private final NonceSource nonces;

    private State state = State.NEW;
    /** tls-server-end-point data of this connection; null when PLUS is not on offer. */
    private byte[] bindingData;
    private boolean bindingInUse;
    private char cbindFlag;
    private String clientFirstBare;
    private String clientNonce;
    private String serverNonce;
    private String serverFirst;

    private ScramServerExchange(String user, ScramSecret secret, boolean passThroughUsable,
            boolean mock, String doomed, NonceSource nonces) {
        this.user = Objects.requireNonNull(user, "user");
        this.secret = secret;
        this.passThroughUsable = passThroughUsable;
        this.mock = mock;
        this.doomed = doomed;
        this.nonces = Objects.requireNonNull(nonces, "nonces");
    }

    /** Verifies against a stored SCRAM secret; recovered keys are usable for pass-through. */
    public ScramServerExchange(String user, ScramSecret secret, NonceSource nonces) {
        this(user, Objects.requireNonNull(secret, "secret"), true, false, null, nonces);
    }

    /**
     * Verifies against whatever the user has stored, as PgBouncer does: a SCRAM secret is used
     * directly; a plain password gets an ad-hoc verifier with a fresh salt from
     * {@code saltSource} and {@code scramIterations} (cache {@link #secret()} per user to avoid
     * recomputing it); an md5 secret cannot work, so the exchange fails after client-first.
     */
    public static ScramServerExchange forStoredSecret(String user, Secret storedSecret,
            int scramIterations, Supplier<byte[]> saltSource, NonceSource nonces) {
        Objects.requireNonNull(storedSecret, "storedSecret");
        return switch (storedSecret.kind()) {
            case SCRAM -> new ScramServerExchange(user, ScramSecret.of(storedSecret), nonces);
            case PLAIN -> new ScramServerExchange(user,
                    ScramSecret.fromPassword(storedSecret.text(), saltSource.get(), scramIterations),
                    false, false, null, nonces);
            case MD5 -> new ScramServerExchange(user, null, false, false,
                    "SCRAM authentication failed: user has MD5 secret", nonces);
        };
    }

    /**
     * An exchange for a user that does not exist, indistinguishable on the wire from a real one
     * until it fails with 28P01. The salt is derived from the user name and an instance-wide
     * {@code mockKey} (random, generated once per process), so repeated probes see a stable salt.
     */
    public static ScramServerExchange mock(String user, byte[] mockKey, int scramIterations,
            NonceSource nonces) {
        byte[] salt = Arrays.copyOf(ScramCrypto.sha256(ScramCrypto.concat(ScramCrypto.utf8(user), mockKey)),
                ScramCrypto.DEFAULT_SALT_LEN);
        byte[] unusable = new byte[ScramCrypto.KEY_LEN];
        ScramSecret fake = new ScramSecret(scramIterations, salt, unusable, unusable);
        return new ScramServerExchange(user, fake, false, true, null, nonces);
    }

    /**
     * Offers {@value #MECHANISM_PLUS} with this {@code tls-server-end-point} data (the hash of the
     * certificate the client's TLS session got); null leaves it off, as over plain TCP.
     */
    public ScramServerExchange offerChannelBinding(byte[] tlsServerEndPoint) {
        if (state != State.NEW) {
            throw new IllegalStateException("channel binding must be offered before the exchange");
        }
        bindingData = tlsServerEndPoint == null ? null : tlsServerEndPoint.clone();
        return this;
    }

    /** The mechanisms for AuthenticationSASL, channel binding first as PostgreSQL lists them. */
    public List<String> mechanisms() {
        return bindingData == null ? List.of(MECHANISM) : List.of(MECHANISM_PLUS, MECHANISM);
    }

    /** The verifier in use (null only for a doomed md5-secret exchange). */
    public ScramSecret secret() {
        return secret;
    }

    /**
     * Parses client-first-message and returns server-first-message
     * ({@code r=<cnonce><snonce>,s=<salt>,i=<iter>}).
     *
     * @throws ScramException on malformed or unsupported input, or if the user has an md5 secret
     */
    public String serverFirst(String clientFirstMessage) {
        return serverFirst(MECHANISM, clientFirstMessage);
    }

    /**
     * As {@link #serverFirst(String)}, for the mechanism the client's SASLInitialResponse named:
     * one of {@link #mechanisms()}, else refused like any unsupported mechanism.
     */
    public String serverFirst(String mechanism, String clientFirstMessage) {
        if (state != State.NEW) {
            throw new IllegalStateException("serverFirst already called");
        }
        state = State.DONE; // any failure below ends the exchange
        if (!mechanisms().contains(mechanism)) {
            // PgBouncer 1.18 and PostgreSQL alike send these words (PLUS over plain TCP included)
            throw new ScramException(AuthFailure.postgres(AuthFailure.PROTOCOL_VIOLATION,
                    "client selected an invalid SASL authentication mechanism", null));
        }
        if (clientFirstMessage == null) {
            // the SASLInitialResponse's length did not match its data (PostgreSQL's words)
            throw new ScramException(AuthFailure.postgres(AuthFailure.PROTOCOL_VIOLATION, "malformed SASL message", null));
        }
        bindingInUse = MECHANISM_PLUS.equals(mechanism);
        parseClientFirst(clientFirstMessage);
        if (doomed != null) {
            throw new ScramException(AuthFailure.wrongPassword(user, doomed));
        }
        serverNonce = nonces.nextNonce();
        if (serverNonce.isEmpty() || !ScramMessageReader.isPrintable(serverNonce)) {
            throw new IllegalStateException("nonce source produced a non-printable nonce");
        }
        serverFirst = "r=" + clientNonce + serverNonce + ",s=" + secret.saltBase64()
                + ",i=" + secret.iterations();
        state = State.FIRST_SENT;
        return serverFirst;
    }

    private void parseClientFirst(String msg) {
        ScramMessageReader in = new ScramMessageReader(msg);
        char flag = in.peek();
        switch (flag) {
            case 'n', 'y' -> {
                if (bindingInUse) {
                    throw bindingRefused(AuthFailure.PROTOCOL_VIOLATION, "malformed SCRAM message",
                            "The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include "
                                    + "channel binding data.");
                }
                if (flag == 'y' && bindingData != null) {
                    // PLUS was offered: a client that thinks it was not saw a list someone cut short
                    throw bindingRefused(AuthFailure.INVALID_AUTHORIZATION, "SCRAM channel binding negotiation error",
                            "The client supports SCRAM channel binding but thinks the server does not.  "
                                    + "However, this server does support channel binding.");
                }
                in.skip();
                if (in.peek() != ',') {
                    throw ScramException.malformed(
                            "malformed SCRAM message (comma expected, but found character \""
                                    + ScramMessageReader.sanitize(in.peek()) + "\")");
                }
                in.skip();
            }
            case 'p' -> {
                if (!bindingInUse) {
                    throw bindingRefused(AuthFailure.PROTOCOL_VIOLATION, "malformed SCRAM message",
                            "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM message "
                                    + "includes channel binding data.");
                }
                String type = in.attr('p');
                if (!CHANNEL_BINDING_TYPE.equals(type)) {
                    throw bindingRefused(AuthFailure.PROTOCOL_VIOLATION, "unsupported SCRAM channel-binding type \""
                            + ScramMessageReader.sanitize(type) + "\"", null);
                }
            }
            default -> throw ScramException.malformed(
                    "malformed SCRAM message (unexpected channel-binding flag \""
                            + ScramMessageReader.sanitize(flag) + "\")");
        }
        cbindFlag = flag;
        if (in.peek() == 'a') {
            throw new ScramException(AuthFailure.protocol(
                    "client uses authorization identity, but it is not supported"));
        }
        if (in.peek() != ',') {
            throw ScramException.malformed("malformed SCRAM message (unexpected attribute \""
                    + ScramMessageReader.sanitize(in.peek()) + "\" in client-first-message)");
        }
        in.skip();
        clientFirstBare = in.rest();
        if (in.peek() == 'm') {
            throw new ScramException(AuthFailure.protocol(
                    "client requires an unsupported SCRAM extension"));
        }
        in.attr('n'); // PostgreSQL ignores the SCRAM user name; the startup packet's one counts
        String nonce = in.attr('r');
        if (!ScramMessageReader.isPrintable(nonce)) {
            throw ScramException.malformed("non-printable characters in SCRAM nonce");
        }
        clientNonce = nonce;
        while (!in.atEnd()) {
            in.anyAttr(); // optional extensions: none supported, so ignored
        }
    }

    /**
     * Checks client-final-message ({@code c=...,r=...,p=<proof>}).
     *
     * @return {@link Success} with the server-final message and recovered keys, or
     *     {@link Failure} (28P01) when the proof is wrong
     * @throws ScramException when the message is malformed or the nonce does not match
     */
    public Result verifyClientFinal(String clientFinalMessage) {
        if (state != State.FIRST_SENT) {
            throw new IllegalStateException("verifyClientFinal out of order");
        }
        state = State.DONE;
        ScramMessageReader in = new ScramMessageReader(Objects.requireNonNull(clientFinalMessage));
        String cbind = in.attr('c');
        if (bindingInUse) {
            // cbind-input is the GS2 header (no authzid: refused above) and the certificate hash
            String expected = ScramCrypto.b64(ScramCrypto.concat(ScramCrypto.utf8(BINDING_GS2_HEADER), bindingData));
            if (!MessageDigest.isEqual(ScramCrypto.utf8(cbind), ScramCrypto.utf8(expected))) {
                throw bindingRefused(AuthFailure.INVALID_AUTHORIZATION, "SCRAM channel binding check failed", null);
            }
        } else if (!((cbind.equals("biws") && cbindFlag == 'n') || (cbind.equals("eSws") && cbindFlag == 'y'))) {
            throw ScramException.malformed(
                    "unexpected SCRAM channel-binding attribute in client-final-message");
        }
        String finalNonce = in.attr('r');
        int proofStart;
        ScramMessageReader.Attr attr;
        do {
            if (in.atEnd()) {
                throw ScramException.malformed("could not read proof");
            }
            proofStart = in.position();
            attr = in.anyAttr();
        } while (attr.name() != 'p');
        byte[] proof = ScramCrypto.unb64(attr.value());
        if (proof == null || proof.length != ScramCrypto.KEY_LEN) {
            throw ScramException.malformed(
                    "malformed SCRAM message (malformed proof in client-final-message)");
        }
        if (!in.atEnd()) {
            throw ScramException.malformed(
                    "malformed SCRAM message (garbage at the end of client-final-message)");
        }
        if (!finalNonce.equals(clientNonce + serverNonce)) {
            throw ScramException.malformed("invalid SCRAM response (nonce does not match)");
        }
        String withoutProof = clientFinalMessage.substring(0, proofStart - 1);
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof)
                .getBytes(StandardCharsets.UTF_8);

        byte[] storedKey = secret.storedKey();
        byte[] clientSignature = ScramCrypto.hmac(storedKey, authMessage);
        byte[] clientKey = ScramCrypto.xor(proof, clientSignature);
        boolean match = MessageDigest.isEqual(ScramCrypto.sha256(clientKey), storedKey);
        if (!match || mock) {
            return new Failure(AuthFailure.wrongPassword(user, "password authentication failed"));
        }
        byte[] serverKey = secret.serverKey();
        String serverFinal = "v=" + ScramCrypto.b64(ScramCrypto.hmac(serverKey, authMessage));
        return new Success(serverFinal, clientKey, serverKey, passThroughUsable);
    }

    private static ScramException bindingRefused(String sqlState, String message, String detail) {
        return new ScramException(AuthFailure.postgres(sqlState, message, detail));
    }
}
