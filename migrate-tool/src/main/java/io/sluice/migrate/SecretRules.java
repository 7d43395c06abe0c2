package io.sluice.migrate;

import io.sluice.auth.Md5Auth;
import io.sluice.config.userlist.AuthFile;
import io.sluice.config.userlist.Secret;
import java.util.Map;

/**
 * Whether each auth-file secret can log in to a given server: md5 entries need an md5-stored
 * role password (a SCRAM role or a scram-sha-256 server method cannot use them), SCRAM entries
 * need the identical SCRAM secret on the server, and plain ones can be verified against an md5
 * hash. Stateless.
 */
final class SecretRules {

    private SecretRules() {
    }

    static void check(AuthFile auth, ServerFacts f, Report r) {
        if (f.roles().isEmpty()) {
            r.add(Severity.WARNING, "secrets", "", f.where(), "cannot read pg_authid (needs a superuser login): "
                    + "auth file secrets were not compared with the server");
            return;
        }
        Map<String, String> kinds = f.roles().get();
        Map<String, String> stored = f.storedSecrets().orElse(Map.of());
        boolean scramOnlyHba = f.hostMethods().map(m -> m.contains("scram-sha-256") && !m.contains("md5")
                && !m.contains("password") && !m.contains("trust")).orElse(false);
        for (Map.Entry<String, Secret> e : auth.users().entrySet()) {
            String user = e.getKey();
            Secret s = e.getValue();
            String kind = kinds.get(user);
            if (kind == null) {
                if (!user.equals("pgbouncer")) {
                    r.add(Severity.WARNING, "secrets", user, f.where(), "no login role " + user + " on the server");
                }
                continue;
            }
            switch (s.kind()) {
                case MD5 -> {
                    if (kind.equals("scram")) {
                        r.add(Severity.ERROR, "secrets", user, f.where(), "auth file has an md5 secret but the role's "
                                + "password is stored as SCRAM (password_encryption = " + f.passwordEncryption()
                                + "): the pooler cannot log in; put the SCRAM secret or the password in the auth file");
                    } else if (scramOnlyHba) {
                        r.add(Severity.ERROR, "secrets", user, f.where(), "auth file has an md5 secret but pg_hba.conf "
                                + "only allows scram-sha-256 for TCP logins");
                    } else if (!s.text().equals(stored.get(user))) {
                        r.add(Severity.ERROR, "secrets", user, f.where(),
                                "the md5 secret in the auth file differs from the server's");
                    } else if (f.passwordEncryption().equals("scram-sha-256")) {
                        r.add(Severity.WARNING, "secrets", user, f.where(), "md5 secret works now, but "
                                + "password_encryption = scram-sha-256: after the next password change it will not");
                    }
                }
                case SCRAM -> {
                    if (!kind.equals("scram")) {
                        r.add(Severity.ERROR, "secrets", user, f.where(), "auth file has a SCRAM secret but the role's "
                                + "password is stored as " + kind + ": the pooler cannot log in to the server");
                    } else if (!s.text().equals(stored.get(user))) {
                        r.add(Severity.ERROR, "secrets", user, f.where(), "the SCRAM secret in the auth file differs "
                                + "from the server's; pass-through login needs them identical");
                    }
                }
                default -> {
                    if (kind.equals("md5") && !Md5Auth.encrypt(s.text(), user).equals(stored.get(user))) {
                        r.add(Severity.ERROR, "secrets", user, f.where(),
                                "the clear-text password in the auth file does not match the server's md5 hash");
                    }
                }
            }
        }
    }
}
