package io.sluice.config.userlist;

import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * A parsed {@code SCRAM-SHA-256$<iterations>:<salt>$<storedkey>:<serverkey>} secret (salt
 * and keys base64 in the text, decoded here).
 */
public record ScramSecret(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {

    private static final String PREFIX = "SCRAM-SHA-256$";
    private static final int KEY_LEN = 32;

    public ScramSecret {
        salt = salt.clone();
        storedKey = storedKey.clone();
        serverKey = serverKey.clone();
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

    /**
     * Parses a secret text; empty if it is not a well-formed SCRAM-SHA-256 secret. The one
     * parser of the stored form: the auth layer builds its verifier from this result.
     */
    public static Optional<ScramSecret> parse(String s) {
        if (!s.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = s.substring(PREFIX.length()).split("\\$", -1);
        if (parts.length != 2) {
            return Optional.empty();
        }
        String[] iterSalt = parts[0].split(":", -1);
        String[] keys = parts[1].split(":", -1);
        if (iterSalt.length != 2 || keys.length != 2) {
            return Optional.empty();
        }
        if (iterSalt[0].isEmpty() || !iterSalt[0].chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        try {
            int iterations = Integer.parseInt(iterSalt[0]);
            Base64.Decoder d = Base64.getDecoder();
            byte[] salt = d.decode(iterSalt[1]);
            byte[] stored = d.decode(keys[0]);
            byte[] server = d.decode(keys[1]);
            if (iterations <= 0 || salt.length == 0 || stored.length != KEY_LEN || server.length != KEY_LEN) {
                return Optional.empty();
            }
            return Optional.of(new ScramSecret(iterations, salt, stored, server));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScramSecret x && x.iterations == iterations && Arrays.equals(x.salt, salt)
                && Arrays.equals(x.storedKey, storedKey) && Arrays.equals(x.serverKey, serverKey);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(storedKey) * 31 + iterations;
    }

    @Override
    public String toString() {
        return "ScramSecret[iterations=" + iterations + ", ...]"; // keys stay out of logs
    }
}
