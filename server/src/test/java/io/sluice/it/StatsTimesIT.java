package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHOW STATS times as PgBouncer counts them, the same scenario on both poolers: a query's and a
 * transaction's time run from the arrival of their first message, so a query that waited for a
 * server includes the wait; in session pooling a transaction's time is its own, not the time
 * since the client logged in.
 */
class StatsTimesIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    @Test
    void queryTimeIncludesTheWaitAndSessionTransactionsTimeThemselves() throws Exception {
        int pg = PgCluster.shared().port();
        String ini = "[databases]\none = host=127.0.0.1 port=" + pg + " dbname=postgres pool_size=1\n"
                + "sess = host=127.0.0.1 port=" + pg + " dbname=postgres pool_mode=session\n[pgbouncer]\n"
                + "auth_type = trust\nadmin_users = postgres\npool_mode = transaction\n";
        Map<String, List<Long>> seen = new LinkedHashMap<>();
        Pooler.inTurn(ini, USERS, p -> {
            try (Connection session = p.connect("sess")) {
                Queries.run(session, "select 1");
                Thread.sleep(500); // idle in the session: no transaction is open
                Queries.run(session, "select 2");
            }
            try (Connection holder = p.connect("one"); Connection queued = p.connect("one")) {
                Queries.run(holder, "select 0");
                Queries.run(queued, "select 0");
                CompletableFuture<String> held = Queries.start(holder, "select pg_sleep(0.8)::text");
                Await.until(Duration.ofSeconds(10), () -> "1".equals(PauseResumeIT.cell(p.port(), "SHOW POOLS", "one", "sv_active")),
                        p + ": the only server is busy");
                Queries.run(queued, "select 1"); // waits for the server the other query holds
                held.get(10, TimeUnit.SECONDS);
            }
            seen.put(p.toString(), List.of(
                    PauseResumeIT.stat(p.port(), "SHOW STATS_TOTALS", "sess", "xact_time"),
                    PauseResumeIT.stat(p.port(), "SHOW STATS_TOTALS", "one", "query_time")));
        });
        System.out.println("[sess xact_time, one query_time] in µs: " + seen);
        seen.forEach((name, v) -> {
            // two quick transactions, half a second apart
            assertThat(v.get(0)).as("%s: session transactions' time", name).isLessThan(400_000);
            // 0.8 s held, plus the queued query's wait of most of that
            assertThat(v.get(1)).as("%s: query time with the wait", name).isGreaterThan(1_100_000);
        });
    }
}
