package io.sluice.stats;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Per-database counters, their sums, PgBouncer's averaging window and the log_stats line. */
class StatsRegistryTest {
    private long now = 1_000_000_000L;
    private final StatsRegistry registry = new StatsRegistry(() -> now);

    @Test
    void oneCounterSetPerDatabaseInNameOrder() {
        DatabaseStats b = registry.of("b");
        registry.of("a");

        assertThat(registry.of("b")).isSameAs(b);
        assertThat(registry.all()).extracting(DatabaseStats::database).containsExactly("a", "b");
    }

    @Test
    void totalsAreSummedAndAveragesComeFromSummedCounters() {
        transaction(registry.of("a"), 300);
        transaction(registry.of("a"), 100);
        transaction(registry.of("b"), 1000);
        registry.of("b").queryBegan();
        registry.of("b").queryEnded(50);

        long[] totals = registry.totals();
        assertThat(totals[DatabaseStats.XACTS]).isEqualTo(3);
        assertThat(totals[DatabaseStats.XACT_TIME]).isEqualTo(1400);
        assertThat(totals[DatabaseStats.QUERIES]).isEqualTo(1);

        // at start PgBouncer's window is one second long: 3 xacts in 1 s; 1400 us over 3 xacts
        long[] avg = registry.averages();
        assertThat(avg[DatabaseStats.XACTS]).isEqualTo(3);
        assertThat(avg[DatabaseStats.XACT_TIME]).isEqualTo(466);
        assertThat(avg[DatabaseStats.QUERY_TIME]).isEqualTo(50);
        assertThat(registry.averages(registry.of("a"))[DatabaseStats.XACT_TIME]).isEqualTo(200);
        assertThat(registry.averages(registry.of("b"))[DatabaseStats.XACTS]).isEqualTo(1);
    }

    @Test
    void averagesAreLiveOverTheWindowFromTheBoundaryBeforeTheLatest() {
        DatabaseStats a = registry.of("a");
        now += SECONDS.toNanos(3);
        for (int i = 0; i < 8; i++) {
            transaction(a, 10);
        }
        // before any boundary: since start, plus PgBouncer's initial second (4 s)
        assertThat(registry.averages(a)[DatabaseStats.XACTS]).isEqualTo(2);

        now += SECONDS.toNanos(1); // the first boundary, 4 s after start
        long[] logged = registry.periodBoundary();
        assertThat(logged[DatabaseStats.XACTS]).isEqualTo(2); // the period that ended: 8 in the 4 s since start

        now += SECONDS.toNanos(4);
        for (int i = 0; i < 16; i++) {
            transaction(a, 40);
        }
        // window from start (the boundary before the latest): 24 xacts in 8 s; 16 x 40 + 8 x 10 us over 24
        assertThat(registry.averages(a)[DatabaseStats.XACTS]).isEqualTo(3);
        assertThat(registry.averages(a)[DatabaseStats.XACT_TIME]).isEqualTo(30);

        logged = registry.periodBoundary(); // second boundary at 8 s: the period that ended, 4-8 s
        assertThat(logged[DatabaseStats.XACTS]).isEqualTo(4);
        assertThat(logged[DatabaseStats.XACT_TIME]).isEqualTo(40);

        now += SECONDS.toNanos(2); // the window is now 4-10 s, with nothing new counted
        assertThat(registry.averages(a)[DatabaseStats.XACTS]).isEqualTo(2);
        assertThat(registry.averages()[DatabaseStats.XACT_TIME]).isEqualTo(40);
    }

    private static void transaction(DatabaseStats d, long micros) {
        d.transactionBegan();
        d.transactionEnded(micros);
    }

    @Test
    void logLineHasPgBouncersWords() {
        long[] avg = new long[DatabaseStats.FIELDS];
        avg[DatabaseStats.XACTS] = 5;
        avg[DatabaseStats.WAIT_TIME] = 7;
        assertThat(StatsRegistry.logLine(avg)).isEqualTo("stats: 5 xacts/s, 0 queries/s, 0 client parses/s,"
                + " 0 server parses/s, 0 binds/s, in 0 B/s, out 0 B/s, xact 0 us, query 0 us, wait 7 us");
    }
}
