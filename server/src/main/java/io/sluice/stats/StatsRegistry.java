package io.sluice.stats;

import io.sluice.util.Clock;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@link DatabaseStats} of every database clients have used, in name order (SHOW STATS
 * order), and their averages as PgBouncer computes them. Event loop only.
 *
 * <p>Averages are computed when asked, over the window from the period boundary before the
 * latest one until now (one to two {@code stats_period}s; before the second boundary, since
 * start). So SHOW STATS shows rates from the first seconds of a run, as PgBouncer's does, and
 * the {@code log_stats} line at a boundary covers exactly the period that ended. Sums over all
 * databases average the summed counters: an average time is total time over total count, not
 * a sum of per-database averages.
 */
public final class StatsRegistry {
    private static final long MICROS_PER_SECOND = 1_000_000;

    private final Map<String, DatabaseStats> byDatabase = new TreeMap<>();
    private final Clock clock;
    /** Times (ns) of the latest period boundary and of the one before it. */
    private long newStamp;
    private long oldStamp;

    public StatsRegistry(Clock clock) {
        this.clock = clock;
        newStamp = clock.nanoTime();
        oldStamp = newStamp - TimeUnit.SECONDS.toNanos(1); // PgBouncer's start: a window of one second
    }

    /** The counters of {@code database}, created on first use. */
    public DatabaseStats of(String database) {
        return byDatabase.computeIfAbsent(database, DatabaseStats::new);
    }

    /** Every database's counters, by name. */
    public Collection<DatabaseStats> all() {
        return Collections.unmodifiableCollection(byDatabase.values());
    }

    /** A {@code stats_period} boundary; returns the averages over all databases of the period that ended. */
    public long[] periodBoundary() {
        oldStamp = newStamp;
        newStamp = clock.nanoTime();
        byDatabase.values().forEach(DatabaseStats::periodBoundary);
        return averages();
    }

    /** Totals summed over all databases, indexed like {@link DatabaseStats#totals()}. */
    public long[] totals() {
        long[] sum = new long[DatabaseStats.FIELDS];
        byDatabase.values().forEach(d -> add(sum, d.totals()));
        return sum;
    }

    /** The averages of one database, indexed like {@link DatabaseStats#totals()}. */
    public long[] averages(DatabaseStats database) {
        return average(database.sinceOlder());
    }

    /** The averages of the counters summed over all databases. */
    public long[] averages() {
        long[] sum = new long[DatabaseStats.FIELDS];
        byDatabase.values().forEach(d -> add(sum, d.sinceOlder()));
        return average(sum);
    }

    /** Counts become per-second rates; times become per transaction, query and assignment (PgBouncer's rules). */
    private long[] average(long[] delta) {
        long micros = TimeUnit.NANOSECONDS.toMicros(clock.nanoTime() - oldStamp);
        long[] avg = new long[DatabaseStats.FIELDS];
        if (micros <= 0) {
            return avg;
        }
        for (int i : new int[] {DatabaseStats.ASSIGNMENTS, DatabaseStats.XACTS, DatabaseStats.QUERIES,
                DatabaseStats.RECEIVED, DatabaseStats.SENT, DatabaseStats.CLIENT_PARSE, DatabaseStats.SERVER_PARSE,
                DatabaseStats.BIND}) {
            avg[i] = MICROS_PER_SECOND * delta[i] / micros;
        }
        avg[DatabaseStats.XACT_TIME] = perEvent(delta, DatabaseStats.XACT_TIME, DatabaseStats.XACTS);
        avg[DatabaseStats.QUERY_TIME] = perEvent(delta, DatabaseStats.QUERY_TIME, DatabaseStats.QUERIES);
        avg[DatabaseStats.WAIT_TIME] = perEvent(delta, DatabaseStats.WAIT_TIME, DatabaseStats.ASSIGNMENTS);
        return avg;
    }

    private static long perEvent(long[] delta, int time, int count) {
        return delta[count] > 0 ? delta[time] / delta[count] : 0;
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
