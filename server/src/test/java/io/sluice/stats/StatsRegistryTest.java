package io.sluice.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Per-database counters, their sums, the stats_period roll and the log_stats line. */
class StatsRegistryTest {
    private final StatsRegistry registry = new StatsRegistry();

    @Test
    void oneCounterSetPerDatabaseInNameOrder() {
        DatabaseStats b = registry.of("b");
        registry.of("a");

        assertThat(registry.of("b")).isSameAs(b);
        assertThat(registry.all()).extracting(DatabaseStats::database).containsExactly("a", "b");
    }

    @Test
    void totalsAndAveragesAreSummedOverDatabases() {
        registry.of("a").transaction(300);
        registry.of("a").transaction(100);
        registry.of("b").transaction(1000);
        registry.of("b").query(50);

        long[] totals = registry.totals();
        assertThat(totals[DatabaseStats.XACTS]).isEqualTo(3);
        assertThat(totals[DatabaseStats.XACT_TIME]).isEqualTo(1400);
        assertThat(totals[DatabaseStats.QUERIES]).isEqualTo(1);
        assertThat(registry.averages()).containsOnly(0L); // no period closed yet

        long[] avg = registry.rollPeriod(2.0);

        // a: 2 xacts in 2 s = 1/s, 200 us each; b: 1 xact = 0/s (integer rate), 1000 us
        assertThat(avg[DatabaseStats.XACTS]).isEqualTo(1);
        assertThat(avg[DatabaseStats.XACT_TIME]).isEqualTo(1200);
        assertThat(avg[DatabaseStats.QUERY_TIME]).isEqualTo(50);
        assertThat(registry.averages()).isEqualTo(avg);

        // the next period starts from the new totals
        assertThat(registry.rollPeriod(2.0)[DatabaseStats.XACT_TIME]).isZero();
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
