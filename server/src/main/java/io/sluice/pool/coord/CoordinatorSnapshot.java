package io.sluice.pool.coord;

/**
 * Read-only state of one coordinator, for SHOW POOL_COORDINATOR and the metrics layer
 * ({@code *_pool_coordinator_total{type=evictions|reserve_acquisitions|exhaustions}} counters,
 * {@code *_pool_coordinator{type=connections|max_connections|reserve_in_use|reserve_pool_size}}
 * gauges).
 *
 * @param database            database name
 * @param maxDbConnections    max_db_connections
 * @param current             permits held, main plus reserve
 * @param reserveSize         db_reserve_pool_size
 * @param reserveUsed         reserve permits held
 * @param evictions           idle connections of neighbours closed to make room (monotonic)
 * @param reserveAcquisitions reserve permits granted (monotonic)
 * @param exhaustions         checkouts failed with the "in use" error (monotonic)
 */
public record CoordinatorSnapshot(
        String database,
        int maxDbConnections,
        int current,
        int reserveSize,
        int reserveUsed,
        long evictions,
        long reserveAcquisitions,
        long exhaustions) {
}
