package io.sluice.session;

import io.sluice.util.Clock;
import io.sluice.util.Scheduler;

import java.util.EnumMap;
import java.util.Map;

/**
 * A client's timers on the injected scheduler and clock, so tests drive them with virtual time.
 * Each {@link Slot} runs at most one timer and the slots run independently: a query's
 * query_timeout and its transaction's transaction_timeout count at the same time, while
 * idle_transaction_timeout only counts between a transaction's statements. Event loop only.
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

    private final Scheduler scheduler;
    private final Clock clock;
    private final Map<Slot, Scheduler.Cancellable> running = new EnumMap<>(Slot.class);

    SessionTimers(Scheduler scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    long now() {
        return clock.nanoTime();
    }

    /** Replaces the slot's timer; {@code delayNanos <= 0} means the timeout is off. */
    void arm(Slot slot, long delayNanos, Runnable onExpiry) {
        cancel(slot);
        if (delayNanos <= 0) {
            return;
        }
        Scheduler.Cancellable[] self = new Scheduler.Cancellable[1];
        self[0] = scheduler.schedule(() -> {
            running.remove(slot, self[0]);
            onExpiry.run();
        }, delayNanos);
        running.put(slot, self[0]);
    }

    /** Arms only when the slot is free (the query timer spans a whole pipeline of queries). */
    void armIfIdle(Slot slot, long delayNanos, Runnable onExpiry) {
        if (!armed(slot)) {
            arm(slot, delayNanos, onExpiry);
        }
    }

    boolean armed(Slot slot) {
        return running.containsKey(slot);
    }

    void cancel(Slot slot) {
        Scheduler.Cancellable c = running.remove(slot);
        if (c != null) {
            c.cancel();
        }
    }

    void cancelAll() {
        for (Slot s : Slot.values()) {
            cancel(s);
        }
    }
}
