package io.sluice.util;

import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

/** Source of jitter. Injected so tests can make jitter reproducible. */
@FunctionalInterface
public interface Randomness {
    /** Uniform in [0, 1). */
    double nextDouble();

    /** Uniform in [lo, hi). */
    default long between(long lo, long hi) {
        return lo + (long) ((hi - lo) * nextDouble());
    }

    /** {@code value} scaled by a uniform factor in [1 - fraction, 1 + fraction). */
    default long jitter(long value, double fraction) {
        return (long) (value * (1.0 - fraction + 2.0 * fraction * nextDouble()));
    }

    static Randomness seeded(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return r::nextDouble;
    }

    static Randomness threadLocal() {
        DoubleSupplier s = () -> java.util.concurrent.ThreadLocalRandom.current().nextDouble();
        return s::getAsDouble;
    }
}
