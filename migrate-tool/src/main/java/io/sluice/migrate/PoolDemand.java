package io.sluice.migrate;

import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.PoolSizing;
import io.sluice.config.Precedence;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How many server connections one {@code [databases]} entry may open, by PgBouncer's rules:
 * one pool per (database, user), each up to pool_size + reserve_pool_size, the whole capped by
 * max_db_connections. A forced user means one pool; otherwise every user Sluice knows (auth_file
 * and {@code [users]}) may get a pool, or one pool is assumed when none is known. Sizes come
 * from {@link Precedence}, the rules the pooler itself sizes its pools by.
 *
 * @param database    entry name
 * @param hostPort    {@code host:port} (host {@code unix} for the Unix socket)
 * @param sizing      the effective settings of each pool counted, smallest pool_size first
 * @param maxDb       max_db_connections in effect (0 = none)
 * @param assumedPool true when no user was known and one pool was assumed
 */
public record PoolDemand(String database, String hostPort, List<PoolSizing> sizing, int maxDb, boolean assumedPool) {

    /** Number of pools counted. */
    public int pools() {
        return sizing.size();
    }

    /** pool_size of each pool, smallest first. */
    public List<Integer> poolSizes() {
        return sizing.stream().map(PoolSizing::poolSize).toList();
    }

    /** reserve_pool_size of each pool, in {@link #poolSizes()} order. */
    public List<Integer> reserves() {
        return sizing.stream().map(PoolSizing::reservePoolSize).toList();
    }

    /** The largest reserve_pool_size of the entry's pools. */
    public int largestReserve() {
        return sizing.stream().mapToInt(PoolSizing::reservePoolSize).max().orElse(0);
    }

    /** Ceiling without reserve: Σ pool_size, capped by max_db_connections. */
    public int ceiling() {
        int sum = sizing.stream().mapToInt(PoolSizing::poolSize).sum();
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
        Precedence rules = snap.precedence();
        List<PoolDemand> out = new ArrayList<>();
        for (DatabaseEntry db : snap.databases().values()) {
            List<PoolSizing> pools = new ArrayList<>();
            boolean assumed = false;
            if (db.hasForcedUser()) {
                pools.add(rules.pool(db, db.user().get()));
            } else if (users.isEmpty()) {
                pools.add(rules.pool(db, null));
                assumed = true;
            } else {
                for (String u : users) {
                    pools.add(rules.pool(db, u));
                }
            }
            pools.sort(Comparator.comparingInt(PoolSizing::poolSize));
            String host = db.hosts().isEmpty() ? "unix" : db.hosts().get(0);
            out.add(new PoolDemand(db.name(), host + ":" + db.port(), List.copyOf(pools), rules.maxDbConnections(db),
                    assumed));
        }
        return out;
    }
}
