package io.sluice.pool.coord;

import io.sluice.util.Scheduler.Cancellable;

/**
 * One checkout's walk through the coordinator phases after phase A failed: R (reserve-first,
 * at the arbiter), B (eviction), C (wait), D (ranked reserve retry), E (error). Ends in exactly
 * one {@link PermitRequester#accept} or {@link PermitRequester#exhausted}, or in {@link #cancel()}
 * (served another way, client gone, query_wait_timeout). Engine thread only.
 */
public final class PermitRequest {
    enum Stage { RESERVE_FIRST, WAITING, RESERVE_RETRY, DONE }

    final PermitRequester requester;
    final long seq;
    Stage stage;
    Cancellable waitTimer = Cancellable.NONE;

    PermitRequest(PermitRequester requester, long seq, Stage stage) {
        this.requester = requester;
        this.seq = seq;
        this.stage = stage;
    }

    /** Leaves the coordinator without a permit; idempotent. */
    public void cancel() {
        stage = Stage.DONE;
        waitTimer.cancel();
    }

    public boolean isDone() {
        return stage == Stage.DONE;
    }

    /** Still wanted: not finished here and its checkout still waits for a permit. */
    boolean live() {
        if (stage == Stage.DONE) {
            return false;
        }
        if (!requester.isWaiting()) {
            cancel();
            return false;
        }
        return true;
    }
}
