package io.sluice.it;

import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, fault (c): the whole of PostgreSQL frozen with SIGSTOP (postmaster and backends: the
 * kernel still accepts TCP connections, nothing answers), on Sluice and then PgBouncer 1.18 from
 * the same ini. A query in flight ends at {@code query_timeout} with PgBouncer's words and its
 * client is closed; a new client's request fails within {@code query_timeout}; a login that needs
 * the pool's first server gives up its connect at {@code server_connect_timeout} and is itself
 * ended at {@code query_timeout} (not the longer {@code query_wait_timeout}), as in PgBouncer;
 * after SIGCONT new clients are served again within {@code server_login_retry} plus a connect.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FrozenPostgresIT {
    private static final int QUERY_TIMEOUT = 3;
    private static final int CONNECT_TIMEOUT = 2;
    private static final int LOGIN_RETRY = 2;
    private static final int QUERY_WAIT_TIMEOUT = 8;
    /** Slack over a configured timeout: the poolers' timers tick at most once a second (PgBouncer: 1/3 s). */
    private static final long SLACK_MILLIS = 1500;

    private static PgCluster pg;

    @BeforeAll
    static void start() {
        pg = PgCluster.builder().start();
    }

    @AfterAll
    static void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    private static String ini() {
        String target = " = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n";
        return "[databases]\nwarm" + target + "cold" + target
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = 2\n"
                + "query_timeout = " + QUERY_TIMEOUT + "\nserver_connect_timeout = " + CONNECT_TIMEOUT + "\n"
                + "server_login_retry = " + LOGIN_RETRY + "\nquery_wait_timeout = " + QUERY_WAIT_TIMEOUT + "\n"
                + FaultProbe.PROBE_SETTINGS;
    }

    @Test
    void aFrozenPostgresEndsQueriesAtQueryTimeoutBoundsLoginsAndRecoversOnSigcont() throws Exception {
        FaultProbe.Runs runs = FaultProbe.onEach(ini(), FrozenPostgresIT::freeze);
        System.out.println("PostgreSQL frozen: " + runs);
        Map<String, List<String>> seen = runs.seen();
        Map<String, List<FaultProbe.Timed>> timings = runs.timings();
        assertThat(seen.get("sluice")).containsExactly(
                "query in flight: ERROR: FATAL: query timeout", "its client afterwards: closed",
                "new client's query: ERROR: FATAL: query_timeout",
                "login needing a first server: ERROR: FATAL: query_timeout", "connect given up: connect timeout",
                "new client after SIGCONT: 1");
        List<FaultProbe.Timed> t = timings.get("sluice");
        long queryBound = QUERY_TIMEOUT * 1000L + SLACK_MILLIS;
        assertThat(t.get(0).millis()).as("query in flight, ms").isLessThanOrEqualTo(queryBound);
        assertThat(t.get(1).millis()).as("new client's query, ms").isLessThanOrEqualTo(queryBound);
        assertThat(t.get(2).millis()).as("login needing a server, ms")
                .isLessThanOrEqualTo(QUERY_TIMEOUT * 1000L + SLACK_MILLIS);
        assertThat(t.get(3).millis()).as("first new client served after SIGCONT, ms")
                .isLessThanOrEqualTo((LOGIN_RETRY + CONNECT_TIMEOUT) * 1000L + SLACK_MILLIS);
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    private static List<String> freeze(Pooler p, List<FaultProbe.Timed> times) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection a = p.connect("warm", FaultProbe.socketTimeout(30))) {
            assertThat(Queries.run(a, "select 1")).isEqualTo("1");
            FaultProbe.signalAll(pg, "STOP");
            try {
                FaultProbe.Timed inFlight = FaultProbe.timed(() -> Queries.run(a, "select 1"));
                times.add(inFlight);
                out.add("query in flight: " + inFlight.outcome());
                out.add("its client afterwards: " + (a.isValid(2) ? "open" : "closed"));
                FaultProbe.Timed next = FaultProbe.newClient(p, "warm", "select 1", 30);
                times.add(next);
                out.add("new client's query: " + next.outcome());
                FaultProbe.Timed cold = FaultProbe.newClient(p, "cold", "select 1", 30);
                times.add(cold);
                out.add("login needing a first server: " + cold.outcome());
                out.add("connect given up: " + FaultProbe.connectTimeoutLogged(p));
            } finally {
                FaultProbe.signalAll(pg, "CONT");
            }
        }
        FaultProbe.Timed served = FaultProbe.firstServed(p, "warm");
        times.add(served);
        out.add("new client after SIGCONT: " + served.outcome());
        return out;
    }
}
