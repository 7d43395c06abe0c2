package io.sluice.auth;

import io.sluice.config.userlist.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Server-side check of a cleartext password (auth_type plain, or the password PAM/LDAP would
 * receive) against a stored secret of any kind, as PgBouncer's check_client_passwd does for
 * AUTH_PLAIN. Stateless.
 */
public final class CleartextAuth {
    private CleartextAuth() {}

    /**
     * @return true if {@code password} matches {@code storedSecret} (plain: equal; md5: equal
     *     after md5-encrypting with the user name; SCRAM: the derived keys match). An empty
     *     stored secret never matches.
     */
    public static boolean verify(Secret storedSecret, String user, String password) {
        if (storedSecret == null || storedSecret.text().isEmpty() || password == null) {
            return false;
        }
        String stored = storedSecret.text();
        return switch (storedSecret.kind()) {
            case PLAIN -> constantTimeEquals(stored, password);
            case MD5 -> constantTimeEquals(stored, Md5Auth.encrypt(password, user));
            case SCRAM -> ScramSecret.of(storedSecret).matchesPassword(password);
        };
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8),
                b.getBytes(StandardCharsets.UTF_8));
    }
}
