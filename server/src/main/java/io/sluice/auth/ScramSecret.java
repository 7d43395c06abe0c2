package io.sluice.auth;

import io.sluice.config.userlist.Secret;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A SCRAM-SHA-256 verifier as PostgreSQL stores it in pg_authid.rolpassword and PgBouncer
 * reads it from userlist.txt: {@code SCRAM-SHA-256$<iter>:<b64salt>$<b64storedkey>:<b64serverkey>}.
 * Arrays are copied in and out, so instances are immutable.
 */
public record ScramSecret(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    private static final String SCHEME = "SCRAM-SHA-256";

    public ScramSecret {
        if (iterations < 1) {
            throw new IllegalArgumentException("iteration count must be positive: " + iterations);
        }
        salt = Objects.requireNonNull(salt, "salt").clone();
        storedKey = checkKey(storedKey, "storedKey");
        serverKey = checkKey(serverKey, "serverKey");
    }

    private static byte[] checkKey(byte[] key, String name) {
        Objects.requireNonNull(key, name);
        if (key.length != ScramCrypto.KEY_LEN) {
            throw new IllegalArgumentException(name + " must be 32 bytes, got " + key.length);
        }
        return key.clone();
    }

    /** Derives the verifier PostgreSQL would store for this password, salt and iteration count. */
    public static ScramSecret fromPassword(String password, byte[] salt, int iterations) {
        byte[] salted = ScramCrypto.saltedPassword(password, salt, iterations);
        return new ScramSecret(iterations, salt,
                ScramCrypto.sha256(ScramCrypto.clientKey(salted)), ScramCrypto.serverKey(salted));
    }

    /** 16 bytes from a SecureRandom, the salt length PostgreSQL and PgBouncer use. */
    public static byte[] randomSalt() {
        byte[] salt = new byte[ScramCrypto.DEFAULT_SALT_LEN];
        ScramCrypto.RANDOM.nextBytes(salt);
        return salt;
    }

    /**
     * Parses the stored form.
     *
     * @throws IllegalArgumentException if {@code text} is not a valid SCRAM-SHA-256 secret
     */
    public static ScramSecret parse(String text) {
        return tryParse(text).orElseThrow(
                () -> new IllegalArgumentException("not a SCRAM-SHA-256 secret"));
    }

    /** Like {@link #parse} but empty instead of throwing (the secret is then md5 or plain). */
    public static Optional<ScramSecret> tryParse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        return io.sluice.config.userlist.ScramSecret.parse(text).map(ScramSecret::of);
    }

    /** The verifier of a stored secret that {@link Secret#of} classified as SCRAM (and parsed). */
    static ScramSecret of(Secret stored) {
        return of(stored.scram().orElseThrow(() -> new IllegalArgumentException("not a SCRAM-SHA-256 secret")));
    }

    private static ScramSecret of(io.sluice.config.userlist.ScramSecret s) {
        return new ScramSecret(s.iterations(), s.salt(), s.storedKey(), s.serverKey());
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    public String saltBase64() {
        return ScramCrypto.b64(salt);
    }

    /** True when the password matches this verifier (used for cleartext auth against SCRAM). */
    public boolean matchesPassword(String password) {
        byte[] salted = ScramCrypto.saltedPassword(password, salt, iterations);
        byte[] stored = ScramCrypto.sha256(ScramCrypto.clientKey(salted));
        return MessageDigest.isEqual(stored, storedKey)
                & MessageDigest.isEqual(ScramCrypto.serverKey(salted), serverKey);
    }

    /** The stored form, {@code SCRAM-SHA-256$<iter>:<salt>$<storedkey>:<serverkey>}. */
    @Override
    public String toString() {
        return SCHEME + "$" + iterations + ":" + ScramCrypto.b64(salt) + "$"
                + ScramCrypto.b64(storedKey) + ":" + ScramCrypto.b64(serverKey);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramSecret s && iterations == s.iterations
                && Arrays.equals(salt, s.salt) && Arrays.equals(storedKey, s.storedKey)
                && Arrays.equals(serverKey, s.serverKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(iterations, Arrays.hashCode(salt), Arrays.hashCode(storedKey),
                Arrays.hashCode(serverKey));
    }
}
