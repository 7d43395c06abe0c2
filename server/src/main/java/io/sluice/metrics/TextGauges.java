package io.sluice.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link MetricKind#TEXT_GAUGE} families in the Prometheus text format 0.0.4, the format
 * Micrometer's {@code scrape()} produces, so they can be appended to its output. Stateless.
 */
final class TextGauges {
    private TextGauges() {
    }

    static String render(List<Sample> samples) {
        Map<String, StringBuilder> byName = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Sample s : samples) {
            Family f = s.family();
            StringBuilder line = new StringBuilder(f.name());
            if (!f.labelNames().isEmpty()) {
                line.append('{');
                for (int i = 0; i < f.labelNames().size(); i++) {
                    if (i > 0) {
                        line.append(',');
                    }
                    line.append(f.labelNames().get(i)).append("=\"").append(escape(s.labelValues().get(i))).append('"');
                }
                line.append('}');
            }
            if (!seen.add(line.toString())) {
                continue; // same series twice (e.g. two databases naming one backend): first wins
            }
            help.putIfAbsent(f.name(), f.help());
            byName.computeIfAbsent(f.name(), n -> new StringBuilder())
                    .append(line).append(' ').append(format(s.value())).append('\n');
        }
        StringBuilder out = new StringBuilder();
        byName.forEach((name, lines) -> out.append("# HELP ").append(name).append(' ').append(help.get(name))
                .append('\n').append("# TYPE ").append(name).append(" gauge\n").append(lines));
        return out.toString();
    }

    private static String format(double v) {
        return v == Math.rint(v) && !Double.isInfinite(v) ? String.valueOf((long) v) + ".0" : String.valueOf(v);
    }

    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
