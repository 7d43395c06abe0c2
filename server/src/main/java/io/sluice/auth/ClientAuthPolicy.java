package io.sluice.auth;

import io.sluice.config.userlist.Secret;
import java.util.Objects;
import java.util.Optional;

/**
 * Which challenge a client gets, given the effective method and what is stored for the user;
 * mirrors PgBouncer's finish_set_pool(). Pure function.
 */
public final class ClientAuthPolicy {
    private ClientAuthPolicy() {}

    /**
     * @param method the auth_type, or for {@code hba} the method the matching HBA rule gave
     *     ({@link AuthMethod#REJECT} when no rule matched)
     * @param secret the kind of the user's stored secret; empty when the user is unknown (the
     *     challenge is still sent and then fails, so unknown users look like wrong passwords)
     * @throws IllegalArgumentException for {@link AuthMethod#HBA}: resolve the rule first
     */
    public static ClientAuthDecision decide(AuthMethod method, Optional<Secret.Kind> secret) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(secret, "secret");
        boolean known = secret.isPresent();
        return switch (method) {
            case HBA -> throw new IllegalArgumentException("resolve the HBA rule before deciding");
            case ANY -> accept(method);
            case TRUST -> known ? accept(method)
                    : new ClientAuthDecision(ClientAuthDecision.Action.REJECT, method,
                            "\"trust\" authentication failed");
            case PLAIN, PAM, LDAP -> new ClientAuthDecision(
                    ClientAuthDecision.Action.REQUEST_CLEARTEXT, method, null);
            // md5 upgrades itself to SCRAM for users whose secret is SCRAM (md5 cannot work then).
            case MD5 -> secret.orElse(null) == Secret.Kind.SCRAM
                    ? scram(secret)
                    : new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_MD5, method, null);
            case SCRAM_SHA_256 -> scram(secret);
            case CERT -> new ClientAuthDecision(ClientAuthDecision.Action.CHECK_CERT, method, null);
            case PEER -> new ClientAuthDecision(ClientAuthDecision.Action.CHECK_PEER, method, null);
            case REJECT -> new ClientAuthDecision(ClientAuthDecision.Action.REJECT, method,
                    "login rejected");
        };
    }

    private static ClientAuthDecision accept(AuthMethod method) {
        return new ClientAuthDecision(ClientAuthDecision.Action.ACCEPT, method, null);
    }

    private static ClientAuthDecision scram(Optional<Secret.Kind> secret) {
        // PgBouncer still sends the SASL request and fails after client-first-message.
        String doomed = secret.orElse(null) == Secret.Kind.MD5
                ? "SCRAM authentication failed: user has MD5 secret" : null;
        return new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_SCRAM,
                AuthMethod.SCRAM_SHA_256, doomed);
    }
}
