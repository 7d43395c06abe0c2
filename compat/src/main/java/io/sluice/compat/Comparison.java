package io.sluice.compat;

/**
 * One workload measured on both targets.
 *
 * @param workload  what ran
 * @param pgbouncer PgBouncer's result
 * @param sluice    Sluice's result
 */
public record Comparison(Workload workload, TargetResult pgbouncer, TargetResult sluice) {

    /** Sluice ÷ PgBouncer, or NaN when PgBouncer's value is 0 or either is unknown (negative). */
    public static double ratio(double sluice, double pgbouncer) {
        if (pgbouncer <= 0 || sluice < 0) {
            return Double.NaN;
        }
        return sluice / pgbouncer;
    }
}
