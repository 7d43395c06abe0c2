package io.sluice.auth;

/**
 * The three forms a stored secret (userlist.txt, auth_query, [users] password) can take,
 * recognised the way PgBouncer's get_password_type() does.
 */
public enum SecretKind {
    /** The password itself. Works for every method. */
    PLAIN,
    /** {@code "md5" + md5hex(password + user)}: exactly 35 chars, lowercase hex. */
    MD5,
    /** {@code SCRAM-SHA-256$<iter>:<salt>$<storedkey>:<serverkey>} that parses. */
    SCRAM;

    /** Classifies a secret; anything that is neither md5 nor a valid SCRAM secret is PLAIN. */
    public static SecretKind of(String secret) {
        if (Md5Auth.isMd5Secret(secret)) {
            return MD5;
        }
        if (ScramSecret.tryParse(secret).isPresent()) {
            return SCRAM;
        }
        return PLAIN;
    }
}
