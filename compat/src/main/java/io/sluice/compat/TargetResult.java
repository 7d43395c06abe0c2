package io.sluice.compat;

import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * One workload's outcome on one target.
 *
 * @param target    "pgbouncer" or "sluice"
 * @param clients   clients that ran
 * @param steps     completed steps whose latency was measured
 * @param seconds   measured wall time
 * @param latencyUs step latencies in microseconds
 * @param errors    failed steps by SQLSTATE (connect failures included)
 * @param backend   what PostgreSQL saw
 */
public record TargetResult(String target, int clients, long steps, double seconds, Histogram latencyUs,
                           Map<String, Long> errors, BackendStats backend) {

    public double tps() {
        return seconds > 0 ? steps / seconds : 0;
    }

    /** Latency at a percentile in milliseconds (0 when nothing was measured). */
    public double latencyMs(double percentile) {
        return latencyUs.getTotalCount() == 0 ? 0 : latencyUs.getValueAtPercentile(percentile) / 1000.0;
    }

    public double maxMs() {
        return latencyUs.getTotalCount() == 0 ? 0 : latencyUs.getMaxValue() / 1000.0;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
