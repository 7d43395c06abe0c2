package io.sluice.config.hba;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Parsed hba rules and the ident maps their {@code map=} options name; the first matching
 * rule decides. Immutable.
 */
public record HbaRules(String source, List<HbaRule> rules, IdentMaps idents) {

    public HbaRules {
        rules = List.copyOf(rules);
        Objects.requireNonNull(idents, "idents");
    }

    public HbaRules(String source, List<HbaRule> rules) {
        this(source, rules, IdentMaps.NONE);
    }

    /**
     * The first rule matching this connection, or empty when none matches (PgBouncer then
     * rejects the login).
     *
     * @param unixSocket true for a Unix-socket client ({@code local} lines)
     * @param tls        true if the client connection uses TLS
     * @param addr       client address, ignored for Unix sockets
     */
    public Optional<HbaRule> firstMatch(boolean unixSocket, boolean tls, InetAddress addr, String db, String user) {
        return rules.stream().filter(r -> r.matches(unixSocket, tls, addr, db, user)).findFirst();
    }

    /** The method of {@link #firstMatch}. */
    public Optional<HbaMethod> match(boolean unixSocket, boolean tls, InetAddress addr, String db, String user) {
        return firstMatch(unixSocket, tls, addr, db, user).map(HbaRule::method);
    }
}
