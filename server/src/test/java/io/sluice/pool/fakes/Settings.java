package io.sluice.pool.fakes;

import io.sluice.pool.PoolSettings;

/** PoolSettings builder with PgBouncer/pressure defaults, in nanoseconds. */
public final class Settings {
    public static final long MS = 1_000_000L;
    public static final long S = 1_000 * MS;

    public int poolSize = 20;
    public int minPoolSize = 0;
    public int reservePoolSize = 0;
    public long reservePoolTimeout = 5 * S;
    public long queryWaitTimeout = 120 * S;
    public long serverLifetime = 3600 * S;
    public long serverIdleTimeout = 600 * S;
    public long serverCheckDelay = 30 * S;
    public boolean serverCheckEnabled = true;
    public long serverLoginRetry = 15 * S;
    /** server_round_robin: false (PgBouncer's default) hands out the most recently returned idle server. */
    public boolean roundRobin = false;
    public int warmPoolRatioPercent = 20;
    public int fastRetries = 10;
    public int maxParallelCreates = 2;
    public long retainConnectionsTime = 30 * S;
    public int maxDbConnections = 0;
    public int maxUserConnections = 0;
    public int minGuaranteedPoolSize = 0;
    public long minConnectionLifetime = 30 * S;
    public int dbReservePoolSize = 0;
    public long dbReservePoolTimeout = 0;

    public PoolSettings build() {
        return new PoolSettings(poolSize, minPoolSize, reservePoolSize, reservePoolTimeout, queryWaitTimeout, serverLifetime,
                serverIdleTimeout, serverCheckDelay, serverCheckEnabled, serverLoginRetry, roundRobin,
                warmPoolRatioPercent, fastRetries, maxParallelCreates, retainConnectionsTime,
                maxDbConnections, maxUserConnections, minGuaranteedPoolSize, minConnectionLifetime,
                dbReservePoolSize, dbReservePoolTimeout);
    }
}
