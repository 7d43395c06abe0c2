package io.sluice.compat;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A row of the side-by-side table and a field of the JSON: a name and how to read it from a
 * result. Negative values mean "not measured". Immutable.
 *
 * @param name     as printed
 * @param key      as in JSON
 * @param decimals digits after the point
 * @param read     the value from a result
 */
record Metric(String name, String key, int decimals, ToDoubleFunction<TargetResult> read) {
    static final List<Metric> ALL = List.of(
            new Metric("tps", "tps", 1, TargetResult::tps),
            new Metric("latency p50 ms", "p50Ms", 3, r -> r.latencyMs(50)),
            new Metric("latency p90 ms", "p90Ms", 3, r -> r.latencyMs(90)),
            new Metric("latency p99 ms", "p99Ms", 3, r -> r.latencyMs(99)),
            new Metric("latency p99.9 ms", "p999Ms", 3, r -> r.latencyMs(99.9)),
            new Metric("latency max ms", "maxMs", 3, TargetResult::maxMs),
            new Metric("backend connects", "backendConnects", 0, r -> r.backend().connects()),
            new Metric("peak startups", "peakStartups", 0, r -> r.backend().peakStartups()),
            new Metric("errors", "errors", 0, r -> r.errorCount()));

    String format(double v) {
        if (v < 0 || Double.isNaN(v)) {
            return "n/a";
        }
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f", v);
    }
}
