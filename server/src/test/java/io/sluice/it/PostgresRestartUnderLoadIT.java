package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, fault (a): PostgreSQL restarted (fast shutdown, then start) under {@code pgbench -c 50}
 * through a transaction-mode pool, on Sluice and then on PgBouncer 1.18 from the same ini. No
 * client may hang (pgbench ends within its run time plus a bound), a new login through the pooler
 * works again within {@code server_login_retry} + 1 s of the moment {@code pg_isready} first
 * succeeds, and afterwards PostgreSQL runs no more backends than the pool size, exactly the ones
 * SHOW SERVERS lists (none leaked, none forgotten). Also pins issue 15 item 6 (the retry window
 * after a restart).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PostgresRestartUnderLoadIT {
    private static final int POOL = 10;
    private static final int LOGIN_RETRY = 3;
    private static final int RUN_SECONDS = 20;
    /** pgbench must have ended this long after its -T: a client stuck on a dead server would hold it. */
    private static final Duration PGBENCH_BOUND = Duration.ofSeconds(RUN_SECONDS + 30);
    private static final String DB = "bench";

    private static PgCluster pg;

    @BeforeAll
    static void start() {
        pg = PgCluster.builder().config("max_connections = 100").start();
        ProcessRunner.pgbenchCommand("-i", "-q", "-s", "2", "-h", pg.host(), "-p", Integer.toString(pg.port()),
                "-U", PgCluster.SUPERUSER, "postgres").timeout(Duration.ofMinutes(3)).run().requireSuccess();
    }

    @AfterAll
    static void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    private static String ini() {
        return "[databases]\n" + DB + " = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = " + POOL + "\n"
                + "max_client_conn = 200\nserver_login_retry = " + LOGIN_RETRY + "\nquery_wait_timeout = 60\n"
                + FaultProbe.PROBE_SETTINGS;
    }

    /** What one restart looked like from the clients' side and PostgreSQL's. */
    record Restart(ProcessResult pgbench, long processed, long aborted, long stopAtMillis, long readyAtMillis,
                   long loginAfterReadyMillis, int backends, long servers) {
        @Override
        public String toString() {
            return String.format("pgbench %s in %d ms (exit %d), %d transactions, %d clients aborted; PostgreSQL"
                            + " stopped at %d ms, ready at %d ms, first login %d ms after pg_isready; afterwards %d"
                            + " backends, %d in SHOW SERVERS", pgbench.timedOut() ? "KILLED" : "ended",
                    pgbench.elapsed().toMillis(), pgbench.exitCode(), processed, aborted, stopAtMillis, readyAtMillis,
                    loginAfterReadyMillis, backends, servers);
        }
    }

    @Test
    void aRestartUnderFiftyClientsHangsNoneRecoversWithinTheRetryWindowAndLeaksNoBackend() throws Exception {
        Map<String, Restart> seen = new LinkedHashMap<>();
        List<Function<String, Pooler>> starts = new ArrayList<>();
        starts.add(text -> Pooler.sluice(text, "\"postgres\" \"\"\n"));
        if (PgBouncerProcess.available()) {
            starts.add(text -> Pooler.pgbouncer(text, "\"postgres\" \"\"\n"));
        }
        for (Function<String, Pooler> start : starts) {
            try (Pooler p = start.apply(ini())) {
                Restart r = restartUnderLoad(p);
                System.out.println("PostgreSQL restart under pgbench -c 50 through " + p + ": " + r);
                seen.put(p.name, r);
            }
        }
        Restart s = seen.get("sluice");
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(s.pgbench.timedOut()).as("pgbench killed at its %d s bound: a client hung", PGBENCH_BOUND
                .toSeconds()).isFalse();
        soft.assertThat(s.pgbench.stdout()).as("pgbench's summary")
                .contains("number of transactions actually processed");
        soft.assertThat(s.processed).as("transactions through the restart").isPositive();
        soft.assertThat(s.loginAfterReadyMillis).as("first successful login after pg_isready, ms")
                .isLessThanOrEqualTo(LOGIN_RETRY * 1000L + 1000);
        soft.assertThat(s.backends).as("backends after the run (pool size %d)", POOL).isBetween(1, POOL);
        soft.assertThat(s.servers).as("SHOW SERVERS rows = PostgreSQL's backends").isEqualTo(s.backends);
        soft.assertAll();
    }

    private static Restart restartUnderLoad(Pooler p) throws Exception {
        long start = System.nanoTime();
        CompletableFuture<ProcessResult> bench = CompletableFuture.supplyAsync(() -> ProcessRunner.pgbenchCommand(
                "-n", "-c", "50", "-j", "2", "-T", Integer.toString(RUN_SECONDS), "-h", "127.0.0.1",
                "-p", Integer.toString(p.port()), "-U", PgCluster.SUPERUSER, DB).timeout(PGBENCH_BOUND).run());
        Await.until(Duration.ofSeconds(20), () -> FaultProbe.backends(pg, "postgres") >= POOL / 2 || bench.isDone(),
                "pgbench to fill the pool through " + p);
        long stopAt = (System.nanoTime() - start) / 1_000_000;
        pg.stopKeepingData();
        CompletableFuture<Void> starting = CompletableFuture.runAsync(pg::startAgain);
        Await.until(Duration.ofSeconds(60), () -> FaultProbe.ready(pg), "pg_isready after the restart");
        long ready = System.nanoTime();
        FaultProbe.Timed login = FaultProbe.firstServed(p, DB);
        assertThat(login.outcome()).as("a login through %s after the restart", p).isEqualTo("1");
        long loginAfterReady = login.millis();
        starting.get(60, TimeUnit.SECONDS);
        ProcessResult run = bench.get(PGBENCH_BOUND.toSeconds() + 30, TimeUnit.SECONDS);
        // The pool settles once pgbench is gone: what PostgreSQL runs must be what the pooler lists.
        Await.poll(Duration.ofSeconds(10), () -> FaultProbe.backends(pg, "postgres") == FaultProbe.servers(p, DB));
        return new Restart(run, number(run.stdout(), "actually processed: (\\d+)"),
                count(run.stderr(), "aborted"), stopAt, (ready - start) / 1_000_000, loginAfterReady,
                FaultProbe.backends(pg, "postgres"),
                FaultProbe.servers(p, DB));
    }

    private static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static long count(String text, String word) {
        return text.lines().filter(l -> l.contains(word)).count();
    }
}
