package io.sluice.pool.pressure;

import io.sluice.pool.PoolSettings;

/**
 * Phase 2: below {@code pool_size * scaling_warm_pool_ratio / 100} connections a pool is cold
 * and a checkout that missed the idle queue goes straight to the burst gate; waiting for a
 * neighbour's return only pays off once enough connections circulate.
 */
public final class WarmGate {
    private WarmGate() {
    }

    public static int threshold(PoolSettings s) {
        return (int) ((long) s.poolSize() * s.warmPoolRatioPercent() / 100);
    }

    /**
     * True when a pool holding {@code size} connections (all states, connects included) is cold.
     * An empty pool is always cold, whatever the ratio: no neighbour can return anything.
     */
    public static boolean isCold(int size, PoolSettings s) {
        return size < Math.max(1, threshold(s));
    }
}
