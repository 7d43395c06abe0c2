package io.sluice.util;

/** Monotonic time source. Injected everywhere time matters so tests can drive virtual time. */
@FunctionalInterface
public interface Clock {
    /** Monotonic nanoseconds; only differences are meaningful. */
    long nanoTime();

    Clock SYSTEM = System::nanoTime;
}
