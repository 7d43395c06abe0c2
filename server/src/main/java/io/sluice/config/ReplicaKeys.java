package io.sluice.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

/** Collects the replica-lag keys of one {@code [databases]} value into {@link ReplicaChecks}. */
final class ReplicaKeys {
    private ReplicaChecks c = ReplicaChecks.OFF;

    /** True when {@code key} is one of ours (its value then parsed, or refused with the reason). */
    boolean accept(String key, String v) {
        switch (key) {
            case "max_replica_lag" -> c = new ReplicaChecks(Optional.of(seconds(key, v)), c.interval(), c.rise(),
                    c.fall(), c.fallback());
            case "replica_check_interval" -> c = new ReplicaChecks(c.maxLag(), positive(key, seconds(key, v)),
                    c.rise(), c.fall(), c.fallback());
            case "replica_rise" -> c = new ReplicaChecks(c.maxLag(), c.interval(), count(key, v), c.fall(),
                    c.fallback());
            case "replica_fall" -> c = new ReplicaChecks(c.maxLag(), c.interval(), c.rise(), count(key, v),
                    c.fallback());
            case "replica_fallback" -> c = new ReplicaChecks(c.maxLag(), c.interval(), c.rise(), c.fall(),
                    ReplicaChecks.Fallback.fromConfig(v).orElseThrow(
                            () -> new IllegalArgumentException("invalid replica_fallback: " + v)));
            default -> {
                return false;
            }
        }
        return true;
    }

    ReplicaChecks build() {
        return c;
    }

    /** Seconds, fractions allowed ({@code 1}, {@code 0.5}): the lag rule is stated in seconds. */
    private static Duration seconds(String key, String v) {
        try {
            BigDecimal s = new BigDecimal(v.strip());
            if (s.signum() < 0) {
                throw new NumberFormatException();
            }
            return Duration.ofNanos(s.movePointRight(9).longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("invalid " + key + ": " + v);
        }
    }

    private static Duration positive(String key, Duration d) {
        if (d.isZero()) {
            throw new IllegalArgumentException("invalid " + key + ": 0");
        }
        return d;
    }

    private static int count(String key, String v) {
        int n = EntryParsers.atoi(v);
        if (n < 1) {
            throw new IllegalArgumentException("invalid " + key + ": " + v);
        }
        return n;
    }
}
