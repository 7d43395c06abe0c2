package io.sluice.auth;

import io.sluice.config.hba.HbaRule;
import io.sluice.config.hba.HbaRules;
import io.sluice.config.userlist.Secret;
import java.util.Objects;
import java.util.Optional;

/**
 * Which method authenticates a login and what the client is asked for: the auth_type, or
 * for {@code hba} the first matching auth_hba_file line (none matching: rejected); then the
 * challenge for the user's stored secret, or the answer for methods that need none (trust,
 * peer, reject). Mirrors PgBouncer's finish_set_pool(), login_as_unix_peer() and
 * login_via_cert(), with their client-facing words. Pure function.
 */
public final class ClientAuthPolicy {
    /** What PgBouncer sends when an hba line says reject. */
    public static final String LOGIN_REJECTED = "login rejected";
    /** What PgBouncer 1.25 sends when no hba line matches (1.18 said "login rejected" there too). */
    public static final String NO_HBA_LINE = "no authentication method is found";
    public static final String TRUST_FAILED = "\"trust\" authentication failed";
    public static final String PEER_FAILED = "unix socket login rejected";
    public static final String CERT_FAILED = "certificate authentication failed";

    private ClientAuthPolicy() {}

    public static ClientAuthDecision decide(LoginRequest r) {
        Objects.requireNonNull(r, "request");
        AuthMethod method = r.authType();
        String map = null;
        if (method == AuthMethod.HBA) {
            Optional<HbaRule> rule = r.hba().flatMap(h -> h.firstMatch(r.unixSocket(), r.tls(), r.address(),
                    r.database(), r.user()));
            if (rule.isEmpty()) {
                return reject(AuthMethod.REJECT, NO_HBA_LINE);
            }
            method = AuthMethod.of(rule.get().method());
            map = rule.get().map();
        }
        return switch (method) {
            case PEER -> peer(r, map);
            // the certificate itself is checked by the TLS layer; without TLS or a known user it
            // cannot succeed (PgBouncer logs "TLS connection required" and sends this)
            case CERT -> r.tls() && r.secret().isPresent()
                    ? new ClientAuthDecision(ClientAuthDecision.Action.CHECK_CERT, method, null)
                    : reject(method, CERT_FAILED);
            default -> challenge(method, r.secret());
        };
    }

    /**
     * Peer: the socket's Unix user must be the database user, or be mapped to it by the
     * line's {@code map=}. Never over TCP, never for an unknown user.
     */
    private static ClientAuthDecision peer(LoginRequest r, String map) {
        if (r.unixSocket() && r.secret().isPresent()) {
            String system = r.peerUser().get();
            boolean ok = system != null && (map == null ? system.equals(r.user())
                    : r.hba().map(HbaRules::idents).orElseThrow().allows(map, system, r.user()));
            if (ok) {
                return accept(AuthMethod.PEER);
            }
        }
        return reject(AuthMethod.PEER, PEER_FAILED);
    }

    /**
     * @param secret the kind of the user's stored secret; empty when the user is unknown (the
     *     challenge is still sent and then fails, so unknown users look like wrong passwords)
     */
    private static ClientAuthDecision challenge(AuthMethod method, Optional<Secret.Kind> secret) {
        boolean known = secret.isPresent();
        return switch (method) {
            case ANY -> accept(method);
            case TRUST -> known ? accept(method) : reject(method, TRUST_FAILED);
            case PLAIN, PAM, LDAP -> new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_CLEARTEXT, method, null);
            // md5 upgrades itself to SCRAM for users whose secret is SCRAM (md5 cannot work then).
            case MD5 -> secret.orElse(null) == Secret.Kind.SCRAM
                    ? scram(secret)
                    : new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_MD5, method, null);
            case SCRAM_SHA_256 -> scram(secret);
            case REJECT -> reject(method, LOGIN_REJECTED);
            case HBA, PEER, CERT -> throw new IllegalStateException("resolved before: " + method);
        };
    }

    private static ClientAuthDecision accept(AuthMethod method) {
        return new ClientAuthDecision(ClientAuthDecision.Action.ACCEPT, method, null);
    }

    private static ClientAuthDecision reject(AuthMethod method, String reason) {
        return new ClientAuthDecision(ClientAuthDecision.Action.REJECT, method, reason);
    }

    private static ClientAuthDecision scram(Optional<Secret.Kind> secret) {
        // PgBouncer still sends the SASL request and fails after client-first-message.
        String doomed = secret.orElse(null) == Secret.Kind.MD5
                ? "SCRAM authentication failed: user has MD5 secret" : null;
        return new ClientAuthDecision(ClientAuthDecision.Action.REQUEST_SCRAM,
                AuthMethod.SCRAM_SHA_256, doomed);
    }
}
