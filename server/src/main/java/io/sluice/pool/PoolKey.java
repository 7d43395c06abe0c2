package io.sluice.pool;

import java.util.Comparator;

/** Identity of a pool: one PgBouncer "pool" per (database entry, user). */
public record PoolKey(String database, String user) {
    /** PgBouncer's pool list order, which its SHOW POOLS, CLIENTS and SERVERS follow: database, then user. */
    public static final Comparator<PoolKey> SHOW_ORDER =
            Comparator.comparing(PoolKey::database).thenComparing(PoolKey::user);

    // written out: the record's generated equals and hashCode go through an invokedynamic
    // bootstrap whose method handles showed in the per-transaction profile (registry and pool maps)
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof PoolKey k && database.equals(k.database) && user.equals(k.user);
    }

    @Override
    public int hashCode() {
        return 31 * database.hashCode() + user.hashCode();
    }

    @Override
    public String toString() {
        return database + "/" + user;
    }
}
