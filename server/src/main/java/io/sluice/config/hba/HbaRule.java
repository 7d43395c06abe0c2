package io.sluice.config.hba;

import java.net.InetAddress;
import java.util.Map;
import java.util.Set;

/**
 * One hba line.
 *
 * @param type      local, host, hostssl or hostnossl
 * @param allDbs    database field {@code all}
 * @param sameUser  database field contains {@code sameuser}
 * @param databases literal database names (from the line and {@code @file}s)
 * @param allUsers  user field {@code all}
 * @param users     literal user names
 * @param address   network address, null for {@code all} or local lines
 * @param prefix    CIDR prefix length for {@code address}
 * @param method    authentication method
 * @param options   {@code name=value} options: only {@code map=} (an auth_ident_file map)
 * @param line      line number in the hba file
 */
public record HbaRule(
        Type type,
        boolean allDbs,
        boolean sameUser,
        Set<String> databases,
        boolean allUsers,
        Set<String> users,
        InetAddress address,
        int prefix,
        HbaMethod method,
        Map<String, String> options,
        int line) {

    /** Connection types. */
    public enum Type { LOCAL, HOST, HOSTSSL, HOSTNOSSL }

    public HbaRule {
        databases = Set.copyOf(databases);
        users = Set.copyOf(users);
        options = Map.copyOf(options);
    }

    /** The ident map this line names with {@code map=}, or null. */
    public String map() {
        return options.get("map");
    }

    boolean matches(boolean unixSocket, boolean tls, InetAddress addr, String db, String user) {
        boolean typeOk = switch (type) {
            case LOCAL -> unixSocket;
            case HOST -> !unixSocket;
            case HOSTSSL -> !unixSocket && tls;
            case HOSTNOSSL -> !unixSocket && !tls;
        };
        if (!typeOk) {
            return false;
        }
        if (!(allDbs || databases.contains(db) || (sameUser && db.equals(user)))) {
            return false;
        }
        if (!(allUsers || users.contains(user))) {
            return false;
        }
        return unixSocket || address == null || inNetwork(addr);
    }

    /**
     * PgBouncer's test: the client address under the mask must equal the line's address as
     * written, so a line whose address has bits outside its mask (10.1.2.3/8) never matches
     * (PgBouncer warns "address does not match mask"; PostgreSQL would mask both sides).
     */
    private boolean inNetwork(InetAddress addr) {
        if (addr == null) {
            return false;
        }
        byte[] a = addr.getAddress();
        byte[] n = address.getAddress();
        if (a.length != n.length) {
            return false;
        }
        int bits = prefix;
        for (int i = 0; i < a.length; i++, bits -= 8) {
            int mask = bits >= 8 ? 0xFF : bits <= 0 ? 0 : (0xFF << (8 - bits)) & 0xFF;
            if ((a[i] & mask) != (n[i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }
}
