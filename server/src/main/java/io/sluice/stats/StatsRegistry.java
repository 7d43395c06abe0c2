package io.sluice.stats;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@link DatabaseStats} of every database clients have used, in name order (SHOW STATS
 * order), with the sums over all of them that SHOW STATS_TOTALS/STATS_AVERAGES and the
 * {@code log_stats} line report. Event loop only.
 */
public final class StatsRegistry {
    private final Map<String, DatabaseStats> byDatabase = new TreeMap<>();

    /** The counters of {@code database}, created on first use. */
    public DatabaseStats of(String database) {
        return byDatabase.computeIfAbsent(database, DatabaseStats::new);
    }

    /** Every database's counters, by name. */
    public Collection<DatabaseStats> all() {
        return Collections.unmodifiableCollection(byDatabase.values());
    }

    /** Closes a {@code stats_period} of {@code seconds} for every database; returns {@link #averages()}. */
    public long[] rollPeriod(double seconds) {
        byDatabase.values().forEach(d -> d.rollPeriod(seconds));
        return averages();
    }

    /** Totals summed over all databases, indexed like {@link DatabaseStats#totals()}. */
    public long[] totals() {
        long[] sum = new long[DatabaseStats.FIELDS];
        byDatabase.values().forEach(d -> add(sum, d.totals()));
        return sum;
    }

    /** The last period's averages summed over all databases. */
    public long[] averages() {
        long[] sum = new long[DatabaseStats.FIELDS];
        byDatabase.values().forEach(d -> add(sum, d.averages()));
        return sum;
    }

    /** PgBouncer's {@code log_stats} line for summed averages. */
    public static String logLine(long[] avg) {
        return String.format("stats: %d xacts/s, %d queries/s, %d client parses/s, %d server parses/s,"
                        + " %d binds/s, in %d B/s, out %d B/s, xact %d us, query %d us, wait %d us",
                avg[DatabaseStats.XACTS], avg[DatabaseStats.QUERIES], avg[DatabaseStats.CLIENT_PARSE],
                avg[DatabaseStats.SERVER_PARSE], avg[DatabaseStats.BIND], avg[DatabaseStats.RECEIVED],
                avg[DatabaseStats.SENT], avg[DatabaseStats.XACT_TIME], avg[DatabaseStats.QUERY_TIME],
                avg[DatabaseStats.WAIT_TIME]);
    }

    private static void add(long[] sum, long[] v) {
        for (int i = 0; i < sum.length; i++) {
            sum[i] += v[i];
        }
    }
}
