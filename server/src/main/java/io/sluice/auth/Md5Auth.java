package io.sluice.auth;

import io.sluice.config.userlist.Secret;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;

/**
 * PostgreSQL md5 password authentication: the stored form, the client's answer to an
 * AuthenticationMD5Password challenge, and the server-side check. Stateless.
 *
 * <p>Strings are hashed as UTF-8, which is what libpq sends for a UTF-8 client encoding.
 */
public final class Md5Auth {
    private static final int SECRET_LEN = 35;
    private static final HexFormat HEX = HexFormat.of();

    private Md5Auth() {}

    /** {@code "md5" + md5hex(password + user)}: what PostgreSQL stores in rolpassword. */
    public static String encrypt(String password, String user) {
        return "md5" + md5hex(utf8(password), utf8(user));
    }

    /**
     * What a client sends for AuthenticationMD5Password:
     * {@code "md5" + md5hex(md5hex(password + user) + salt)}. Accepts either the plain password
     * or an md5 secret (as found in userlist.txt), so the pooler can log in to PostgreSQL
     * without knowing the password.
     *
     * @throws IllegalArgumentException if {@code secret} is a SCRAM secret (md5 cannot be
     *     computed from it) or the salt is not 4 bytes
     */
    public static String clientResponse(String secret, String user, byte[] salt4) {
        Objects.requireNonNull(secret, "secret");
        if (salt4 == null || salt4.length != 4) {
            throw new IllegalArgumentException("md5 salt must be 4 bytes");
        }
        if (Secret.kindOf(secret) == Secret.Kind.SCRAM) {
            throw new IllegalArgumentException(
                    "cannot answer an md5 challenge with a SCRAM secret");
        }
        String inner = Secret.isMd5(secret) ? secret : encrypt(secret, user);
        return "md5" + md5hex(inner.substring(3).getBytes(StandardCharsets.US_ASCII), salt4);
    }

    /**
     * Server side: does the client's md5 response match the stored secret (plain or md5)?
     * Empty or SCRAM secrets never match, as in PgBouncer. The comparison is constant-time.
     */
    public static boolean verify(Secret storedSecret, String user, byte[] salt,
            String clientResponse) {
        if (storedSecret == null || storedSecret.text().isEmpty() || clientResponse == null
                || clientResponse.length() != SECRET_LEN
                || storedSecret.kind() == Secret.Kind.SCRAM) {
            return false;
        }
        String expected = clientResponse(storedSecret.text(), user, salt);
        return MessageDigest.isEqual(utf8(expected), utf8(clientResponse));
    }

    private static String md5hex(byte[] a, byte[] b) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(a);
            md.update(b);
            return HEX.formatHex(md.digest());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("MD5 unavailable", e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
