package io.sluice.admin;

import java.util.Objects;

/** Per-database statistics for SHOW STATS / STATS_TOTALS / STATS_AVERAGES. */
public record StatsRow(String database, StatsCounters totals, StatsCounters averages) {
    public StatsRow {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(totals, "totals");
        Objects.requireNonNull(averages, "averages");
    }
}
