package io.sluice.metrics;

import java.util.List;

/**
 * One SHOW command's answer as its text cells, exactly what an exporter reading the admin
 * console sees ({@code null} for SQL NULL). Immutable.
 *
 * @param columns column names in console order
 * @param rows    text cells, one list per row, aligned with {@code columns}
 */
public record ShowTable(List<String> columns, List<List<String>> rows) {
    public ShowTable {
        columns = List.copyOf(columns);
        rows = rows.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
    }

    /** Index of the column, or -1. */
    public int column(String name) {
        return columns.indexOf(name);
    }
}
