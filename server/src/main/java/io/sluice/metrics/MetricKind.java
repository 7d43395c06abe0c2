package io.sluice.metrics;

/** How a family is exposed. */
public enum MetricKind {
    /** A Micrometer gauge. */
    GAUGE,
    /** A Micrometer function counter (exposed with the {@code _total} suffix). */
    COUNTER,
    /**
     * A gauge whose name is also the base name of a counter family ({@code sluice_pool_scaling}
     * next to {@code sluice_pool_scaling_total}). Micrometer's Prometheus model names counters
     * without {@code _total} and refuses the clash, so these are written in the same text
     * format by {@link TextGauges}.
     */
    TEXT_GAUGE
}
