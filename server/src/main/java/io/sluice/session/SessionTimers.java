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

    private static final int SLOTS = Slot.values().length;

    private final Scheduler scheduler;
    private final Clock clock;
    /** The armed slot's expiry action, or null when the slot is off. */
    private final Runnable[] onExpiry = new Runnable[SLOTS];
    private final long[] deadline = new long[SLOTS];
    /** The slot's scheduled wake-up (null when none) and when it is due. */
    private final Scheduler.Cancellable[] wakeUp = new Scheduler.Cancellable[SLOTS];
    private final long[] wakeUpAt = new long[SLOTS];
    private final Runnable[] wake = new Runnable[SLOTS];

    SessionTimers(Scheduler scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
        for (Slot s : Slot.values()) {
            wake[s.ordinal()] = () -> woke(s.ordinal());
        }
    }

    long now() {
        return clock.nanoTime();
    }

    /** Replaces the slot's timer; {@code delayNanos <= 0} means the timeout is off. */
    void arm(Slot slot, long delayNanos, Runnable action) {
        int i = slot.ordinal();
        if (delayNanos <= 0) {
            onExpiry[i] = null;
            return;
        }
        long at = now() + delayNanos;
        onExpiry[i] = action;
        deadline[i] = at;
        if (wakeUp[i] != null && wakeUpAt[i] - at <= 0) {
            return; // the wake-up already scheduled comes first and sleeps on to the new deadline
        }
        if (wakeUp[i] != null) {
            wakeUp[i].cancel();
        }
        wakeUpAt[i] = at;
        wakeUp[i] = scheduler.schedule(wake[i], delayNanos);
    }

    boolean armed(Slot slot) {
        return onExpiry[slot.ordinal()] != null;
    }

    void cancel(Slot slot) {
        onExpiry[slot.ordinal()] = null;
    }

    /** The session ends: nothing may stay scheduled for it. */
    void cancelAll() {
        for (int i = 0; i < SLOTS; i++) {
            onExpiry[i] = null;
            if (wakeUp[i] != null) {
                wakeUp[i].cancel();
                wakeUp[i] = null;
            }
        }
    }

    private void woke(int i) {
        wakeUp[i] = null;
        Runnable action = onExpiry[i];
        if (action == null) {
            return;
        }
        long left = deadline[i] - now();
        if (left > 0) {
            wakeUpAt[i] = deadline[i];
            wakeUp[i] = scheduler.schedule(wake[i], left);
            return;
        }
        onExpiry[i] = null;
        action.run();
    }
}
