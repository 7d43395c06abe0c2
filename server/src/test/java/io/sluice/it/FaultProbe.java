package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBinaries;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;

import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the fault tests observe around a pooler and its PostgreSQL: a client statement with how
 * long its answer took, the pooler's SHOW rows, PostgreSQL's own count of backends, readiness,
 * and signals to a whole PostgreSQL (postmaster and children).
 */
final class FaultProbe {
    private FaultProbe() {
    }

    /** One client statement's outcome ({@link Queries#run} text, or "ERROR: ..." for a failed login) and its time. */
    record Timed(String outcome, long millis) {
        boolean failed() {
            return outcome.startsWith("ERROR: ");
        }

        @Override
        public String toString() {
            return outcome + " after " + millis + " ms";
        }
    }

    /** Runs {@code work} and times it; an exception becomes an "ERROR: " outcome. */
    static Timed timed(Callable<String> work) {
        long start = System.nanoTime();
        String outcome;
        try {
            outcome = work.call();
        } catch (Exception e) {
            outcome = "ERROR: " + e.getMessage();
        }
        return new Timed(outcome, (System.nanoTime() - start) / 1_000_000);
    }

    /** A new client of {@code pooler} running {@code sql} once, login included, all within {@code socketTimeout}. */
    static Timed newClient(Pooler pooler, String db, String sql, int socketTimeoutSeconds) {
        return timed(() -> {
            try (Connection c = pooler.connect(db, socketTimeout(socketTimeoutSeconds))) {
                return Queries.run(c, sql);
            }
        });
    }

    /** What a scenario saw on each pooler: its outcome lines, and the steps it timed. */
    record Runs(Map<String, List<String>> seen, Map<String, List<Timed>> timings) {
        @Override
        public String toString() {
            return seen + "\n  timings: " + timings;
        }
    }

    /**
     * The [pgbouncer] lines every fault test's ini ends with: the probes read the console as
     * postgres, pgjdbc's extra_float_digits is let through, and stats lines stay out of the log.
     */
    static final String PROBE_SETTINGS =
            "admin_users = postgres\nlog_stats = 0\nignore_startup_parameters = extra_float_digits\n";

    /** A scenario on one pooler: returns its outcome lines and adds the steps it timed to {@code times}. */
    @FunctionalInterface
    interface Scenario {
        List<String> run(Pooler p, List<Timed> times) throws Exception;
    }

    /** Runs {@code scenario} on Sluice, then on PgBouncer when installed, each fresh from {@code ini} (trusting postgres). */
    static Runs onEach(String ini, Scenario scenario) throws Exception {
        Map<String, List<String>> seen = new LinkedHashMap<>();
        Map<String, List<Timed>> timings = new LinkedHashMap<>();
        for (Pooler p : Pooler.both(ini, "\"postgres\" \"\"\n")) {
            try (p) {
                List<Timed> times = new ArrayList<>();
                seen.put(p.name, scenario.run(p, times));
                timings.put(p.name, times);
            }
        }
        return new Runs(seen, timings);
    }

    /** Tries new clients until one is served {@code select 1} (at most 30 s): "1" or "never served", and how long it took. */
    static Timed firstServed(Pooler p, String db) {
        long start = System.nanoTime();
        boolean served = Await.poll(Duration.ofSeconds(30), () -> !newClient(p, db, "select 1", 10).failed());
        return new Timed(served ? "1" : "never served", (System.nanoTime() - start) / 1_000_000);
    }

    /** "connect timeout" once the pooler logged a connect it gave up at server_connect_timeout (within 5 s), else "no". */
    static String connectTimeoutLogged(Pooler p) {
        return Await.poll(Duration.ofSeconds(5), () -> p.log().contains("connect timeout")) ? "connect timeout" : "no";
    }

    /** pgjdbc properties: a read that waits longer than {@code seconds} fails rather than hangs the test. */
    static Properties socketTimeout(int seconds) {
        Properties p = new Properties();
        p.setProperty("socketTimeout", Integer.toString(seconds));
        p.setProperty("connectTimeout", Integer.toString(seconds));
        return p;
    }

    /** Rows of an admin console command over psql (the ini must name postgres in admin_users). */
    static List<String[]> console(int port, String command) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", port, "pgbouncer", "postgres", null, command);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.out().lines().filter(l -> !l.isBlank()).map(l -> l.split("\\|", -1)).toList();
    }

    /** SHOW SERVERS rows of one database (column 3 in PgBouncer's layout). */
    static long servers(Pooler pooler, String db) {
        return console(pooler.port(), "show servers").stream().filter(r -> r.length > 2 && r[2].equals(db)).count();
    }

    /** Client backends PostgreSQL runs for {@code db}, not counting the one asking. */
    static int backends(PgCluster pg, String db) {
        return Integer.parseInt(pg.query("select count(*) from pg_stat_activity where backend_type = 'client backend'"
                + " and pid <> pg_backend_pid() and datname = '" + db + "'").get(0).get(0));
    }

    /** True once {@code pg_isready} says the server accepts connections. */
    static boolean ready(PgCluster pg) {
        return ProcessRunner.of(PgBinaries.tool("pg_isready"), "-q", "-h", pg.host(), "-p",
                Integer.toString(pg.port()), "-t", "1").timeout(Duration.ofSeconds(10)).run().ok();
    }

    /** The postmaster's pid, from postmaster.pid. */
    static long postmasterPid(PgCluster pg) throws Exception {
        String first = Files.readAllLines(pg.dataDir().resolve("postmaster.pid")).get(0).strip();
        return Long.parseLong(first);
    }

    /** Sends {@code signal} to the postmaster and every process it started (SIGSTOP freezes all of PostgreSQL). */
    static void signalAll(PgCluster pg, String signal) throws Exception {
        long postmaster = postmasterPid(pg);
        List<String> cmd = new ArrayList<>(List.of("kill", "-s", signal, Long.toString(postmaster)));
        ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> cmd.add(Long.toString(d.pid()))));
        ProcessRunner.of(cmd).timeout(Duration.ofSeconds(10)).run().requireSuccess();
    }
}
