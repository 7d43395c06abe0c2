package io.sluice.metrics;

import java.util.List;

/**
 * One row of the declarative metric table: where a value comes from (a SHOW command and a
 * column, or for the key/value tables LISTS and CONFIG the row whose first cell is {@code
 * rowKey}) and the Prometheus family it feeds.
 *
 * @param source       SHOW command, e.g. {@code POOLS}
 * @param column       value column ({@code items} / {@code value} for row-keyed tables)
 * @param rowKey       for row-keyed tables, the first cell of the row to read; else null
 * @param name         Prometheus name as exposed (counters without {@code _total})
 * @param kind         gauge or counter
 * @param scale        multiplier, e.g. 1e-6 for microseconds to seconds
 * @param labelNames   label names
 * @param labelSources per label: a column name, or {@code =text} for a constant
 * @param help         HELP text
 */
public record Family(String source, String column, String rowKey, String name, MetricKind kind, double scale,
        List<String> labelNames, List<String> labelSources, String help) {
    public Family {
        labelNames = List.copyOf(labelNames);
        labelSources = List.copyOf(labelSources);
        if (labelNames.size() != labelSources.size()) {
            throw new IllegalArgumentException("labels of " + name);
        }
    }
}
