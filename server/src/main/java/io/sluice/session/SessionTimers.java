package io.sluice.session;

import io.sluice.util.Clock;
import io.sluice.util.Scheduler;

/**
 * A client's one running timer (login, query, idle-in-transaction or client idle timeout: at
 * most one applies at a time) on the injected scheduler and clock, so tests can drive it with
 * virtual time. Event loop only.
 */
final class SessionTimers {
    private final Scheduler scheduler;
    private final Clock clock;
    private Scheduler.Cancellable running = Scheduler.Cancellable.NONE;
    private boolean armed;

    SessionTimers(Scheduler scheduler, Clock clock) {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    long now() {
        return clock.nanoTime();
    }

    /** Replaces the running timer; {@code delayNanos <= 0} means the timeout is off. */
    void arm(long delayNanos, Runnable onExpiry) {
        cancel();
        if (delayNanos <= 0) {
            return;
        }
        armed = true;
        running = scheduler.schedule(() -> {
            armed = false;
            running = Scheduler.Cancellable.NONE;
            onExpiry.run();
        }, delayNanos);
    }

    /** Arms only when no timer runs (the query timer spans a whole pipeline of queries). */
    void armIfIdle(long delayNanos, Runnable onExpiry) {
        if (!armed) {
            arm(delayNanos, onExpiry);
        }
    }

    void cancel() {
        running.cancel();
        running = Scheduler.Cancellable.NONE;
        armed = false;
    }
}
