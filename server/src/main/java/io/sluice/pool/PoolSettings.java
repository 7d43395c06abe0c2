package io.sluice.pool;

/**
 * Effective settings of one pool, resolved from the config snapshot (global key, then
 * [databases] entry, then [users] entry). Durations in nanoseconds; 0 means "off" where
 * PgBouncer's key says so.
 *
 * @param poolSize                 default_pool_size / pool_size
 * @param minPoolSize              min_pool_size
 * @param reservePoolSize          reserve_pool_size (PgBouncer meaning: extra servers after a wait)
 * @param reservePoolTimeout       reserve_pool_timeout
 * @param queryWaitTimeout         query_wait_timeout; 0 = never wait
 * @param serverLifetime           server_lifetime; 0 = single use
 * @param serverIdleTimeout        server_idle_timeout; 0 = off
 * @param serverCheckDelay         server_check_delay (idle time before a liveness probe)
 * @param serverCheckEnabled       false when server_check_query is the empty string
 * @param serverLoginRetry         server_login_retry
 * @param roundRobin               server_round_robin
 * @param warmPoolRatioPercent     scaling_warm_pool_ratio
 * @param fastRetries              scaling_fast_retries
 * @param maxParallelCreates       scaling_max_parallel_creates
 * @param retainConnectionsTime    retain_connections_time (replenish / retain cycle)
 * @param maxDbConnections         max_db_connections of the database; 0 = no limit
 * @param maxUserConnections       max_user_connections of the user; 0 = no limit
 * @param minGuaranteedPoolSize    min_guaranteed_pool_size: connections a coordinator never evicts
 * @param minConnectionLifetime    min_connection_lifetime: idle time after its last use before a connection
 *                                 may go to a pool that is not smaller than its own by two or more
 * @param dbReservePoolSize        db_reserve_pool_size: the coordinator's reserve above max_db_connections
 * @param dbReservePoolTimeout     db_reserve_pool_timeout: coordinator wait budget; 0 = the client's query_wait_timeout
 */
public record PoolSettings(
        int poolSize,
        int minPoolSize,
        int reservePoolSize,
        long reservePoolTimeout,
        long queryWaitTimeout,
        long serverLifetime,
        long serverIdleTimeout,
        long serverCheckDelay,
        boolean serverCheckEnabled,
        long serverLoginRetry,
        boolean roundRobin,
        int warmPoolRatioPercent,
        int fastRetries,
        int maxParallelCreates,
        long retainConnectionsTime,
        int maxDbConnections,
        int maxUserConnections,
        int minGuaranteedPoolSize,
        long minConnectionLifetime,
        int dbReservePoolSize,
        long dbReservePoolTimeout) {

    /**
     * Below this size a pool is starving and wins the coordinator's reserve:
     * max(min_pool_size, min_guaranteed_pool_size). Only min_guaranteed_pool_size also shields
     * connections from eviction (min_pool_size does not, as in PgBouncer).
     */
    public int effectiveMinimum() {
        return Math.max(minPoolSize, minGuaranteedPoolSize);
    }
}
