package io.sluice.pool;

/**
 * One row of SHOW POOL_SCALING: monotonic counters since start plus the in-flight gauge.
 *
 * @param inflight            connects running now (burst-gate slots plus pre-replacements)
 * @param creates             creates_started
 * @param gateWaits           burst_gate_waits
 * @param gateBudgetExhausted burst_gate_budget_exhausted
 * @param anticipationNotify  anticipation_wakes_notify (a waiter got a returned connection)
 * @param anticipationTimeout anticipation_wakes_timeout (a phase-4 deadline expired)
 * @param createFallback      create_fallback (a waiter whose phase-4 deadline expired went on to connect)
 * @param replenishDeferred   replenish_deferred
 */
public record ScalingSnapshot(
        PoolKey key,
        long inflight,
        long creates,
        long gateWaits,
        long gateBudgetExhausted,
        long anticipationNotify,
        long anticipationTimeout,
        long createFallback,
        long replenishDeferred) {
}
