package io.sluice.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One value of one family with its label values, read from a SHOW table.
 *
 * @param family      where it comes from
 * @param labelValues aligned with {@link Family#labelNames()}
 * @param value       scaled value
 */
public record Sample(Family family, List<String> labelValues, double value) {

    /**
     * Reads every sample of {@code family} from the tables. Cells that do not parse as numbers
     * (NULL, text) give no sample, as the exporters skip them; a missing table or column gives none.
     */
    public static List<Sample> read(Family family, Map<String, ShowTable> tables) {
        ShowTable t = tables.get(family.source());
        List<Sample> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        int col = t.column(family.column());
        if (col < 0) {
            return out;
        }
        for (List<String> row : t.rows()) {
            if (family.rowKey() != null && !family.rowKey().equals(row.get(0))) {
                continue;
            }
            Double v = number(row.get(col));
            if (v == null) {
                continue;
            }
            List<String> labels = new ArrayList<>(family.labelSources().size());
            for (String src : family.labelSources()) {
                if (src.startsWith("=")) {
                    labels.add(src.substring(1));
                } else {
                    int i = t.column(src);
                    String cell = i < 0 ? null : row.get(i);
                    labels.add(cell == null ? "" : cell);
                }
            }
            out.add(new Sample(family, labels, v * family.scale()));
        }
        return out;
    }

    private static Double number(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
