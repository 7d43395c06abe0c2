package io.sluice.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Info;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The metrics registry behind the endpoint: a Micrometer {@link PrometheusMeterRegistry} whose
 * meters are kept in step with the SHOW tables of each scrape (a series appears when its pool or
 * database does and is removed when it goes), plus {@code pgbouncer_up} and {@code
 * pgbouncer_version_info}. Counters are function counters over the console's monotonic totals,
 * so they never reset while Sluice runs.
 *
 * <p>Threading: {@link #render} is synchronized; call it from any thread with tables that were
 * read on the event loop.
 */
public final class PrometheusMetrics {
    private record SeriesKey(String name, List<String> labels) {
    }

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<SeriesKey, double[]> values = new HashMap<>();
    private final Map<SeriesKey, Meter> meters = new HashMap<>();
    private final Info versionInfo;
    private String version;

    public PrometheusMetrics() {
        Gauge.builder(Families.UP, () -> 1).description("The pgbouncer scrape succeeded").register(registry);
        versionInfo = Info.builder().name(Families.VERSION_INFO).help("The pgbouncer version info")
                .labelNames("version").register(registry.getPrometheusRegistry());
    }

    /** Content type of {@link #render}'s text. */
    public static String contentType() {
        return "text/plain; version=0.0.4; charset=utf-8";
    }

    /** Updates every series from the tables and returns the exposition text. */
    public synchronized String render(Map<String, ShowTable> shown) {
        Map<String, ShowTable> tables = PinnedPerPool.with(shown);
        updateVersion(tables.get("VERSION"));
        List<Sample> text = new ArrayList<>();
        Set<SeriesKey> seen = new HashSet<>();
        for (Family f : Families.all()) {
            for (Sample s : Sample.read(f, tables)) {
                if (f.kind() == MetricKind.TEXT_GAUGE) {
                    text.add(s);
                    continue;
                }
                SeriesKey key = new SeriesKey(f.name(), tags(f, s));
                if (!seen.add(key)) {
                    continue; // first row wins, as a dashboard would see one series
                }
                double[] holder = values.get(key);
                if (holder == null) {
                    holder = new double[1];
                    values.put(key, holder);
                    meters.put(key, register(f, key, holder));
                }
                holder[0] = s.value();
            }
        }
        for (SeriesKey gone : new ArrayList<>(meters.keySet())) {
            if (!seen.contains(gone)) {
                registry.remove(meters.remove(gone));
                values.remove(gone);
            }
        }
        return registry.scrape() + TextGauges.render(text);
    }

    private static List<String> tags(Family f, Sample s) {
        List<String> kv = new ArrayList<>();
        for (int i = 0; i < f.labelNames().size(); i++) {
            kv.add(f.labelNames().get(i));
            kv.add(s.labelValues().get(i));
        }
        return kv;
    }

    private Meter register(Family f, SeriesKey key, double[] holder) {
        Tags tags = Tags.of(key.labels().toArray(new String[0]));
        if (f.kind() == MetricKind.COUNTER) {
            return FunctionCounter.builder(f.name(), holder, h -> h[0]).description(f.help()).tags(tags)
                    .register(registry);
        }
        return Gauge.builder(f.name(), holder, h -> h[0]).description(f.help()).tags(tags).strongReference(true)
                .register(registry);
    }

    /**
     * The exporter labels its info metric with SHOW VERSION's whole text (collector.go
     * queryVersion), so a dashboard sees here what it would see through the exporter.
     */
    private void updateVersion(ShowTable t) {
        if (t == null || t.rows().isEmpty()) {
            return;
        }
        String v = String.valueOf(t.rows().get(0).get(0));
        if (!v.equals(version)) {
            if (version != null) {
                versionInfo.remove(version);
            }
            versionInfo.setLabelValues(v);
            version = v;
        }
    }
}
