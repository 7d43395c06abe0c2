package io.sluice.testkit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Bounded polling for an observable condition (a log line appeared, a process exited, a port
 * accepts). Polls with a small backoff (1 ms doubling to 100 ms) until the condition holds or
 * the deadline passes; never waits without bound.
 */
public final class Await {
    private static final long MIN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private Await() {}

    /**
     * Returns as soon as {@code condition} is true.
     *
     * @throws AssertionError naming {@code what} if it is still false after {@code timeout}
     */
    public static void until(Duration timeout, BooleanSupplier condition, String what) {
        if (!poll(timeout, condition)) {
            throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
        }
    }

    /** Like {@link #until} but reports the outcome instead of throwing: true if the condition held in time. */
    public static boolean poll(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = MIN_PAUSE_NANOS;
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(pause, left));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting");
            }
            pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
        }
    }
}
