package io.sluice.util;

/**
 * Runs tasks later, and right away, on one thread: the thread that owns the state the tasks
 * touch. Production uses an event loop; tests use {@code VirtualScheduler}-like fakes.
 */
public interface Scheduler {
    /** Runs {@code task} after {@code delayNanos} on the owning thread. */
    Cancellable schedule(Runnable task, long delayNanos);

    /** Runs {@code task} soon on the owning thread, after tasks already queued. */
    void execute(Runnable task);

    /** A scheduled task that may be called off; cancelling twice or after it ran is harmless. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();

        Cancellable NONE = () -> { };
    }
}
