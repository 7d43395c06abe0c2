package io.sluice.admin;

/**
 * One SHOW POOL_SCALING row (Sluice's own; spec/pressure.md "Observability"): per pool,
 * monotonic counters since start, except {@code inflight} which is the current number of
 * server connects in flight.
 */
public record PoolScalingRow(
        String user,
        String database,
        long inflight,
        long creates,
        long gateWaits,
        long gateBudgetExhausted,
        long anticipationNotify,
        long anticipationTimeout,
        long createFallback,
        long replenishDeferred) {
}
