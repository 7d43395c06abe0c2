package io.sluice.compat;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The terminal table: one block per workload, one line per metric, with Sluice ÷ PgBouncer. Stateless. */
final class TextTable {
    private TextTable() {}

    static String render(List<Comparison> comparisons) {
        StringBuilder out = new StringBuilder();
        String fmt = "%-22s %-18s %14s %14s %10s%n";
        out.append(String.format(Locale.ROOT, fmt, "workload", "metric", "pgbouncer", "sluice", "sluice/pgb"));
        out.append("-".repeat(82)).append('\n');
        for (Comparison c : comparisons) {
            String label = c.workload().label() + " (" + c.sluice().clients() + "c)";
            for (Metric m : Metric.ALL) {
                double p = m.read().applyAsDouble(c.pgbouncer());
                double s = m.read().applyAsDouble(c.sluice());
                double r = Comparison.ratio(s, p);
                out.append(String.format(Locale.ROOT, fmt, label, m.name(), m.format(p), m.format(s),
                        Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2f", r)));
                label = "";
            }
            errorLine(out, "pgbouncer errors", c.pgbouncer().errors());
            errorLine(out, "sluice errors", c.sluice().errors());
        }
        return out.toString();
    }

    private static void errorLine(StringBuilder out, String who, Map<String, Long> errors) {
        if (!errors.isEmpty()) {
            out.append(String.format(Locale.ROOT, "%-22s %s by SQLSTATE: %s%n", "", who, errors));
        }
    }
}
