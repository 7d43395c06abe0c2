package io.sluice.auth;

import java.util.Objects;

/**
 * What the pooler does with a client after the startup packet, as decided by
 * {@link ClientAuthPolicy}.
 *
 * @param action the next step
 * @param method the effective method (md5 may have become scram-sha-256)
 * @param reason for {@link Action#REJECT}: the text PgBouncer sends the client (SQLSTATE 08P01)
 *     and logs as {@code closing because: <reason>}; for a challenge that is known to fail later
 *     (SCRAM for a user with an md5 secret) the log detail PgBouncer writes; otherwise null
 */
public record ClientAuthDecision(Action action, AuthMethod method, String reason) {
    /** The next step of the login. */
    public enum Action {
        /** Log in without a password (any, trust, a peer that passed). */
        ACCEPT,
        /** Send AuthenticationCleartextPassword; check with {@link CleartextAuth} (or PAM/LDAP). */
        REQUEST_CLEARTEXT,
        /** Send AuthenticationMD5Password with a random 4-byte salt; check with {@link Md5Auth}. */
        REQUEST_MD5,
        /** Send AuthenticationSASL listing {@value ScramServerExchange#MECHANISM}. */
        REQUEST_SCRAM,
        /** Check the TLS client certificate against the user name (the TLS layer's part). */
        CHECK_CERT,
        /** Refuse now with {@link #reason}. */
        REJECT
    }

    public ClientAuthDecision {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(method, "method");
        if (action == Action.REJECT && reason == null) {
            throw new IllegalArgumentException("a rejection needs a reason");
        }
    }

    /** True when the challenge will be sent but can never succeed (see {@link #reason}). */
    public boolean doomed() {
        return action != Action.REJECT && reason != null;
    }
}
