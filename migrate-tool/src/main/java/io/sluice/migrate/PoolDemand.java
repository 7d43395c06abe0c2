package io.sluice.migrate;

import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.UserEntry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How many server connections one {@code [databases]} entry may open, by PgBouncer's rules:
 * one pool per (database, user), each up to pool_size + reserve_pool_size, the whole capped by
 * max_db_connections. A forced user means one pool; otherwise every user Sluice knows (auth_file
 * and {@code [users]}) may get a pool, or one pool is assumed when none is known.
 *
 * @param database    entry name
 * @param hostPort    {@code host:port} (host {@code unix} for the Unix socket)
 * @param pools       number of pools counted
 * @param poolSizes   pool_size of each pool, smallest first
 * @param reserve     reserve_pool_size per pool
 * @param maxDb       max_db_connections in effect (0 = none)
 * @param assumedPool true when no user was known and one pool was assumed
 */
public record PoolDemand(String database, String hostPort, int pools, List<Integer> poolSizes, int reserve,
                         int maxDb, boolean assumedPool) {

    /** Ceiling without reserve: Σ pool_size, capped by max_db_connections. */
    public int ceiling() {
        int sum = poolSizes.stream().mapToInt(Integer::intValue).sum();
        return maxDb > 0 ? Math.min(sum, maxDb) : sum;
    }

    /** Demand of every configured database of {@code snap} (the {@code *} fallback is not counted);
     * {@code authUsers} are the users of the auth file in use. */
    public static List<PoolDemand> of(ConfigSnapshot snap, Collection<String> authUsers) {
        Set<String> users = new LinkedHashSet<>(snap.users().keySet());
        users.addAll(authUsers);
        users.removeAll(snap.adminUsers());
        users.removeAll(snap.statsUsers());
        users.remove("pgbouncer");
        List<PoolDemand> out = new ArrayList<>();
        for (DatabaseEntry db : snap.databases().values()) {
            List<Integer> sizes = new ArrayList<>();
            int defaultSize = db.poolSize().orElse(snap.defaultPoolSize());
            int reserve = db.reservePoolSize().orElse(snap.reservePoolSize());
            boolean assumed = false;
            if (db.hasForcedUser()) {
                sizes.add(sizeFor(snap, db.user().get(), defaultSize));
            } else if (users.isEmpty()) {
                sizes.add(defaultSize);
                assumed = true;
            } else {
                for (String u : users) {
                    sizes.add(sizeFor(snap, u, defaultSize));
                }
            }
            sizes.sort(Integer::compare);
            int maxDb = db.maxDbConnections().orElse(snap.maxDbConnections());
            String host = db.hosts().isEmpty() ? "unix" : db.hosts().get(0);
            out.add(new PoolDemand(db.name(), host + ":" + db.port(), sizes.size(), List.copyOf(sizes), reserve,
                    maxDb, assumed));
        }
        return out;
    }

    private static int sizeFor(ConfigSnapshot snap, String user, int dbSize) {
        UserEntry u = snap.users().get(user);
        return u != null && u.poolSize().isPresent() ? u.poolSize().getAsInt() : dbSize;
    }
}
