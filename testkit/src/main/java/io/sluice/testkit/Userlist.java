package io.sluice.testkit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Lines of a PgBouncer auth file ({@code userlist.txt}): {@code "user" "secret"}, where the
 * secret is a plain password, {@code md5<hex(md5(password + user))>} or a SCRAM verifier.
 */
public final class Userlist {
    private Userlist() {}

    /** A line with the secret as given (plain text, md5 hash or SCRAM verifier). */
    public static String entry(String user, String secret) {
        return quote(user) + " " + quote(secret) + "\n";
    }

    /** A line holding the md5 hash of the password, as PostgreSQL stores it. */
    public static String md5Entry(String user, String password) {
        return entry(user, md5Secret(user, password));
    }

    /** {@code "md5" + hex(md5(password + user))}: PostgreSQL's stored md5 secret. */
    public static String md5Secret(String user, String password) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            byte[] digest = md.digest((password + user).getBytes(StandardCharsets.UTF_8));
            return "md5" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    // The auth file doubles a double quote inside a quoted field.
    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
