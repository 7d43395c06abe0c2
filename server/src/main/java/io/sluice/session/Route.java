package io.sluice.session;

import io.sluice.config.PoolMode;

import io.sluice.pool.PoolKey;

/**
 * Where a logged-in client's queries go and the per-pool rules its session follows, resolved
 * from [databases], [users] and the global settings. Durations in nanoseconds, 0 = off.
 * {@code maxPreparedStatements}: per-server statement cache in transaction/statement pooling
 * (0 = client names pass through); {@code maxPinnedServers}: how many of the pool's servers
 * pinned clients may keep (0 = no bound).
 */
public record Route(
        PoolKey poolKey,
        PoolMode mode,
        String resetQuery,
        boolean resetAlways,
        long queryTimeout,
        long idleTransactionTimeout,
        long clientIdleTimeout,
        long transactionTimeout,
        int maxDbClientConnections,
        int maxUserClientConnections,
        int maxPreparedStatements,
        int maxPinnedServers) {
}
