package io.sluice.config.hba;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/** Parsed hba rules; the first matching rule decides. Immutable. */
public record HbaRules(String source, List<HbaRule> rules) {

    public HbaRules {
        rules = List.copyOf(rules);
    }

    /**
     * The method of the first rule matching this connection, or empty when none matches
     * (PgBouncer then rejects the login).
     *
     * @param unixSocket true for a Unix-socket client ({@code local} lines)
     * @param tls        true if the client connection uses TLS
     * @param addr       client address, ignored for Unix sockets
     */
    public Optional<HbaMethod> match(boolean unixSocket, boolean tls, InetAddress addr, String db, String user) {
        return rules.stream().filter(r -> r.matches(unixSocket, tls, addr, db, user))
                .findFirst().map(HbaRule::method);
    }
}
