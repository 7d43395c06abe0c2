package io.sluice.pool;

/** The monotonic pressure counters of one pool (SHOW POOL_SCALING). Engine thread only. */
public final class ScalingCounters {
    private long creates;
    private long gateWaits;
    private long gateBudgetExhausted;
    private long anticipationNotify;
    private long anticipationTimeout;
    private long createFallback;
    private long replenishDeferred;

    public void createStarted() {
        creates++;
    }

    public void gateWait() {
        gateWaits++;
    }

    public void gateBudgetExhausted() {
        gateBudgetExhausted++;
    }

    public void anticipationNotify() {
        anticipationNotify++;
    }

    public void anticipationTimeout() {
        anticipationTimeout++;
    }

    public void createFallback() {
        createFallback++;
    }

    public void replenishDeferred() {
        replenishDeferred++;
    }

    public ScalingSnapshot snapshot(PoolKey key, long inflight) {
        return new ScalingSnapshot(key, inflight, creates, gateWaits, gateBudgetExhausted,
                anticipationNotify, anticipationTimeout, createFallback, replenishDeferred);
    }
}
