package io.sluice.pool;

/** Identity of a pool: one PgBouncer "pool" per (database entry, user). */
public record PoolKey(String database, String user) {
    @Override
    public String toString() {
        return database + "/" + user;
    }
}
