package io.sluice.pool;

import java.util.Comparator;

/** Identity of a pool: one PgBouncer "pool" per (database entry, user). */
public record PoolKey(String database, String user) {
    /** PgBouncer's pool list order, which its SHOW POOLS, CLIENTS and SERVERS follow: database, then user. */
    public static final Comparator<PoolKey> SHOW_ORDER =
            Comparator.comparing(PoolKey::database).thenComparing(PoolKey::user);

    @Override
    public String toString() {
        return database + "/" + user;
    }
}
