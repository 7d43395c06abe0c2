package io.sluice.util;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One instance for equal values, so that code on a hot path may compare them by reference.
 * Bounded: past its limit of distinct values, a value is returned as it is, which only costs its
 * comparisons their shortcut. Thread-safe (a process may run several event loops in tests).
 */
public final class Interner<T> {
    private final ConcurrentHashMap<T, T> shared = new ConcurrentHashMap<>();
    private final int limit;

    public Interner(int limit) {
        this.limit = limit;
    }

    /** The instance equal to {@code value} that this interner hands out, or {@code value} itself. */
    public T share(T value) {
        T found = shared.get(value);
        if (found != null) {
            return found;
        }
        if (shared.size() >= limit) {
            return value;
        }
        found = shared.putIfAbsent(value, value);
        return found == null ? value : found;
    }
}
