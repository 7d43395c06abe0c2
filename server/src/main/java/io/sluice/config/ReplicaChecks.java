package io.sluice.config;

import java.time.Duration;
import java.util.Optional;

/**
 * Sluice's own per-database keys for routing by replica lag (no PgBouncer counterpart).
 *
 * @param maxLag   {@code max_replica_lag}: a replica further behind than this, in time, gets no
 *                 new server connections; empty = no checks, PgBouncer's plain host list
 * @param interval {@code replica_check_interval}: time between two checks of a host
 * @param rise     {@code replica_rise}: good checks in a row that bring a host back
 * @param fall     {@code replica_fall}: bad checks in a row that take a host out
 * @param fallback {@code replica_fallback}: where reads go when no replica is in service
 */
public record ReplicaChecks(Optional<Duration> maxLag, Duration interval, int rise, int fall, Fallback fallback) {
    public static final ReplicaChecks OFF = new ReplicaChecks(Optional.empty(), Duration.ofSeconds(1), 2, 3,
            Fallback.PRIMARY);

    public boolean enabled() {
        return maxLag.isPresent();
    }

    /** {@code replica_fallback}: send reads to the primary, or refuse them. */
    public enum Fallback {
        PRIMARY, ERROR;

        public static Optional<Fallback> fromConfig(String s) {
            return switch (s.toLowerCase(java.util.Locale.ROOT)) {
                case "primary" -> Optional.of(PRIMARY);
                case "error" -> Optional.of(ERROR);
                default -> Optional.empty();
            };
        }

        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
