package io.sluice.session;

import io.sluice.util.Clock;
import io.sluice.util.Scheduler;

/**
 * A client's timers on the injected scheduler and clock, so tests drive them with virtual time.
 * Each {@link Slot} runs at most one timer and the slots run independently: a query's
 * query_timeout and its transaction's transaction_timeout count at the same time, while
 * idle_transaction_timeout only counts between a transaction's statements.
 *
 * <p>Timers are armed and called off around every transaction, so a slot keeps a deadline and
 * schedules lazily: cancelling only clears the deadline, and a task already due no later than a
 * new deadline is kept, wakes, and sleeps again for what is left. A slot so costs at most one
 * scheduled task per timeout period instead of a schedule and a cancel per transaction (the
 * event loop's task queue work showed in the per-transaction profile). Event loop only.
 */
final class SessionTimers {
    /** What a timer measures; one timer per slot. */
    enum Slot {
        /** client_login_timeout, then client_idle_timeout or idle_transaction_timeout: idle time. */
        IDLE,
        /** query_timeout: a query in flight, or a request waiting for a server. */
        QUERY,
        /** transaction_timeout: from a transaction's first message to its end. */
        TRANSACTION,
        /** query_wait_notify: the NOTICE to a client queued for a server. */
        WAIT_NOTICE
    }

    /**
     * One slot's state in one object, so arming or calling off a timer touches one cache line of
     * the client's, not one per array (with hundreds of clients queued, each a miss).
     */
    private final class Timer {
        /** The armed expiry action, or null when the slot is off. */
        Runnable onExpiry;
        long deadline;
        /** The scheduled wake-up (null when none) and when it is due. */
        Scheduler.Cancellable wakeUp;
        long wakeUpAt;
        final Runnable wake = this::woke;

        private void woke() {
            wakeUp = null;
            Runnable action = onExpiry;
            if (action == null) {
                return;
            }
            long left = deadline - now();
            if (left > 0) {
                wakeUpAt = deadline;
                wakeUp = scheduler.schedule(wake, left);
                return;
            }
            onExpiry = null;
            action.run();
        }
    }

    private final Scheduler scheduler;
    private final Clock clock;
    private final Timer[] timers = new Timer[Slot.values().length];

    SessionTimers(Scheduler scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
        for (int i = 0; i < timers.length; i++) {
            timers[i] = new Timer();
        }
    }

    long now() {
        return clock.nanoTime();
    }

    /** Replaces the slot's timer; {@code delayNanos <= 0} means the timeout is off. */
    void arm(Slot slot, long delayNanos, Runnable action) {
        Timer t = timers[slot.ordinal()];
        if (delayNanos <= 0) {
            t.onExpiry = null;
            return;
        }
        long at = now() + delayNanos;
        t.onExpiry = action;
        t.deadline = at;
        if (t.wakeUp != null && t.wakeUpAt - at <= 0) {
            return; // the wake-up already scheduled comes first and sleeps on to the new deadline
        }
        if (t.wakeUp != null) {
            t.wakeUp.cancel();
        }
        t.wakeUpAt = at;
        t.wakeUp = scheduler.schedule(t.wake, delayNanos);
    }

    boolean armed(Slot slot) {
        return timers[slot.ordinal()].onExpiry != null;
    }

    void cancel(Slot slot) {
        timers[slot.ordinal()].onExpiry = null;
    }

    /** The session ends: nothing may stay scheduled for it. */
    void cancelAll() {
        for (Timer t : timers) {
            t.onExpiry = null;
            if (t.wakeUp != null) {
                t.wakeUp.cancel();
                t.wakeUp = null;
            }
        }
    }
}
