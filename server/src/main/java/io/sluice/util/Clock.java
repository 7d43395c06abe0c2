package io.sluice.util;

/** Monotonic time source. Injected everywhere time matters so tests can drive virtual time. */
@FunctionalInterface
public interface Clock {
    /** Monotonic nanoseconds; only differences are meaningful. */
    long nanoTime();

    /** Wall-clock epoch milliseconds, for the times the console lists (request_time). */
    default long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    Clock SYSTEM = System::nanoTime;
}
