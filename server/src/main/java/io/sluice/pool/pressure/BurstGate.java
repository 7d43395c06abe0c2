package io.sluice.pool.pressure;

import io.sluice.pool.HandoffQueue;

/**
 * Phase 5's bounded burst gate of one pool: at most scaling_max_parallel_creates client-driven
 * connects in flight, and the FIFO of checkouts waiting for a slot. A slot is held from the
 * moment a connect starts until it succeeds or fails. Engine thread only.
 */
final class BurstGate {
    private final HandoffQueue<Checkout> waiters = new HandoffQueue<>();
    private int inflight;

    boolean hasFreeSlot(int maxParallel) {
        return inflight < Math.max(1, maxParallel);
    }

    void take() {
        inflight++;
    }

    void release() {
        if (inflight <= 0) {
            throw new IllegalStateException("burst gate slot released twice");
        }
        inflight--;
    }

    int inflight() {
        return inflight;
    }

    HandoffQueue<Checkout> waiters() {
        return waiters;
    }

    /** The oldest checkout still waiting for a slot, or null. */
    Checkout oldestWaiter() {
        return waiters.peekLive(Checkout::waitsForGate);
    }
}
