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
 * event loop's task queue work showed in the per-transaction profile). Which slots are armed is
 * also kept as bits here, so that calling off a timer that is off, the rule with PgBouncer's
 * defaults (no query_timeout, no idle timeouts), touches no slot: with hundreds of clients each
 * slot touched is a cache miss. Event loop only.
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
        /** This slot's bit in {@link #armedSlots}. */
        final int bit;
        /** The armed expiry action, or null when the slot is off (its bit clear). */
        Runnable onExpiry;
        long deadline;
        /** The scheduled wake-up (null when none) and when it is due. */
        Scheduler.Cancellable wakeUp;
        long wakeUpAt;
        final Runnable wake = this::woke;

        Timer(int bit) {
            this.bit = bit;
        }

        void off() {
            onExpiry = null;
            armedSlots &= ~bit;
        }

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
            off();
            action.run();
        }
    }

    private static final int SLOTS = Slot.values().length;

    private final Scheduler scheduler;
    private final Clock clock;
    /**
     * Made on a slot's first arm: with PgBouncer's defaults a client arms client_login_timeout,
     * and query_wait_notify only once the pool queues it; every client holds this array for life.
     */
    private final Timer[] timers = new Timer[SLOTS];
    /** Bit {@code 1 << slot.ordinal()} set while the slot's timer is armed. */
    private int armedSlots;

    SessionTimers(Scheduler scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    long now() {
        return clock.nanoTime();
    }

    /** Replaces the slot's timer; {@code delayNanos <= 0} means the timeout is off. */
    void arm(Slot slot, long delayNanos, Runnable action) {
        if (delayNanos <= 0) {
            cancel(slot);
            return;
        }
        Timer t = timers[slot.ordinal()];
        if (t == null) {
            t = timers[slot.ordinal()] = new Timer(1 << slot.ordinal());
        }
        long at = now() + delayNanos;
        t.onExpiry = action;
        armedSlots |= t.bit;
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
        return (armedSlots & (1 << slot.ordinal())) != 0;
    }

    void cancel(Slot slot) {
        if (armed(slot)) {
            timers[slot.ordinal()].off();
        }
    }

    /** The session ends: nothing may stay scheduled for it. */
    void cancelAll() {
        for (Timer t : timers) {
            if (t == null) {
                continue;
            }
            t.off();
            if (t.wakeUp != null) {
                t.wakeUp.cancel();
                t.wakeUp = null;
            }
        }
    }
}
