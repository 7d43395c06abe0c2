package io.sluice.admin;

/**
 * One SHOW POOL_COORDINATOR row (Sluice's own; spec/pressure.md "Observability"): per database
 * with max_db_connections &gt; 0. {@code current} counts main plus reserve permits.
 */
public record PoolCoordinatorRow(
        String database,
        long maxDbConnections,
        long current,
        long reserveSize,
        long reserveUsed,
        long evictions,
        long reserveAcquisitions,
        long exhaustions) {
}
