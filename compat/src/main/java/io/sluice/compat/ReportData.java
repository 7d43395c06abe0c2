package io.sluice.compat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable report (report.json, and the data the HTML report draws): per workload,
 * per target, the metrics, a latency percentile curve, errors by SQLSTATE and the backend
 * connect times; plus the Sluice ÷ PgBouncer ratios. Stateless.
 */
final class ReportData {
    /** Percentiles sampled for the curve: dense towards the tail, where poolers differ. */
    static final double[] CURVE = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 100};

    private ReportData() {}

    static Map<String, Object> build(String setup, long durationSeconds, int maxClients, List<Comparison> comparisons) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", "sluice-compat");
        root.put("setup", setup);
        root.put("durationSeconds", durationSeconds);
        root.put("maxClients", maxClients);
        List<Object> workloads = new ArrayList<>();
        for (Comparison c : comparisons) {
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("name", c.workload().name());
            w.put("version", c.workload().version());
            w.put("description", c.workload().description());
            w.put("clients", c.sluice().clients());
            Map<String, Object> targets = new LinkedHashMap<>();
            targets.put("pgbouncer", target(c.pgbouncer()));
            targets.put("sluice", target(c.sluice()));
            w.put("targets", targets);
            Map<String, Object> ratios = new LinkedHashMap<>();
            for (Metric m : Metric.ALL) {
                ratios.put(m.key(), Comparison.ratio(m.read().applyAsDouble(c.sluice()), m.read().applyAsDouble(c.pgbouncer())));
            }
            w.put("ratios", ratios);
            workloads.add(w);
        }
        root.put("workloads", workloads);
        return root;
    }

    private static Map<String, Object> target(TargetResult r) {
        Map<String, Object> t = new LinkedHashMap<>();
        for (Metric m : Metric.ALL) {
            double v = m.read().applyAsDouble(r);
            t.put(m.key(), v < 0 ? null : (Object) v);
        }
        t.put("steps", r.steps());
        t.put("seconds", r.seconds());
        List<Object> curve = new ArrayList<>();
        if (r.latencyUs().getTotalCount() > 0) {
            for (double p : CURVE) {
                curve.add(List.of(p, r.latencyUs().getValueAtPercentile(p) / 1000.0));
            }
        }
        t.put("latencyCurve", curve);
        t.put("errorsBySqlstate", new LinkedHashMap<String, Object>(r.errors()));
        t.put("backendSource", r.backend().source());
        t.put("connectTimesMs", new ArrayList<Object>(r.backend().connectTimes()));
        return t;
    }
}
