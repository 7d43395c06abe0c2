package io.sluice.pool.pressure;

import io.sluice.util.Scheduler.Cancellable;

import java.util.ArrayList;
import java.util.List;

/**
 * query_wait_timeout for all of a pool's waiting checkouts on one timer. A timer per checkout cost
 * a schedule and a cancel on the event loop's task queue for every transaction that waited, and
 * with hundreds of clients queued that queue holds hundreds of entries (the 500-client profile
 * showed it). Here the timer sleeps until the earliest deadline any checkout armed; when it wakes
 * it fails the checkouts whose deadline passed (those that finished left {@link Pool#pending()}
 * already) and sleeps again until the next one. A checkout that arms a later deadline than the
 * one the timer waits for (the usual case: deadlines follow arrival order) schedules nothing.
 * Engine thread only.
 */
final class WaitDeadlines {
    private final Pool pool;
    private Cancellable wake = Cancellable.NONE;
    private boolean scheduled;
    private long wakeAt;

    WaitDeadlines(Pool pool) {
        this.pool = pool;
    }

    /** A checkout now waits until {@code deadlineAt} (absolute, the pool's clock) at most. */
    void armed(long deadlineAt) {
        if (scheduled && wakeAt - deadlineAt <= 0) {
            return;
        }
        wake.cancel();
        scheduled = true;
        wakeAt = deadlineAt;
        wake = pool.scheduler().schedule(this::sweep, Math.max(0, deadlineAt - pool.now()));
    }

    private void sweep() {
        scheduled = false;
        long now = pool.now();
        List<Checkout> expired = new ArrayList<>();
        long next = 0;
        boolean any = false;
        for (Checkout c : pool.pending()) {
            long at = c.armedDeadline();
            if (at == Long.MAX_VALUE) {
                continue;
            }
            if (at - now <= 0) {
                expired.add(c);
            } else if (!any || at - next < 0) {
                next = at;
                any = true;
            }
        }
        if (any) {
            armed(next);
        }
        for (Checkout c : expired) {
            c.deadlinePassed(); // may start new checkouts, which arm their own deadlines
        }
    }
}
