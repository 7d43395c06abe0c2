package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.Await;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 16: the coordinator must not starve a pool that PgBouncer serves. Same pgbouncer.ini
 * (no Sluice keys: min_connection_lifetime stays at its 30 s default) for PgBouncer 1.18 and
 * Sluice, same PostgreSQL: max_db_connections = 10, default_pool_size = 10; user A runs 10
 * pgbench clients of {@code select pg_sleep(0.02)} for 2 s, user B starts 5 such clients 1.5 s
 * later for 3 s. Two rounds, the poolers taking turns, each pooler's better round counts. The
 * backends B held on average (sampled from pg_stat_activity: what the coordinator let it have)
 * must reach 90 % of what PgBouncer let it have, B's transactions 80 % of PgBouncer's (they also
 * carry each pooler's CPU per query, on two cores shared with PostgreSQL and pgbench), and
 * SHOW POOL_COORDINATOR must count the evictions that made room for B. Both poolers first run
 * the same load on another database, so Sluice's JVM is not measured while it compiles.
 */
class CoordinatorStarvationIT {
    static final String QUERY = "select pg_sleep(0.02);\n";
    static final Pattern PROCESSED = Pattern.compile("number of transactions actually processed: (\\d+)");
    static final Pattern FAILED = Pattern.compile("number of failed transactions: (\\d+)");

    @Test
    void userBGetsAtLeastPgBouncersThroughputAndTheEvictionsAreCounted() throws Exception {
        Assumptions.assumeTrue(PgBouncerProcess.available(), "Debian's pgbouncer is needed for the comparison");
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("starve");
        String warm = PgCluster.uniqueName("warm");
        String userA = PgCluster.uniqueName("sa");
        String userB = PgCluster.uniqueName("sb");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        pg.createDatabase(warm, PgCluster.SUPERUSER);
        pg.createUser(userA, "secret-a", Encryption.MD5);   // cheap backend logins: the scenario is about permits, not auth
        pg.createUser(userB, "secret-b", Encryption.MD5);
        String entry = " = host=127.0.0.1 port=" + pg.port() + "\n";
        String ini = "[databases]\n" + db + entry + warm + entry
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = 10\n"
                + "max_db_connections = 10\nmax_client_conn = 100\nadmin_users = postgres\n"
                + "log_connections = 0\nlog_disconnections = 0\n";
        String users = "\"postgres\" \"\"\n\"" + userA + "\" \"secret-a\"\n\"" + userB + "\" \"secret-b\"\n";
        Path script = Files.createTempFile("sluice-starve-", ".sql");   // pgbench runs as this JVM's user
        Files.writeString(script, QUERY);
        try {
            run(pg, db, ini, users, script, userA, userB, warm);
        } finally {
            Files.deleteIfExists(script);
        }
    }

    /**
     * max_db_connections = 1 and two users in transaction pooling: the second user, with no server
     * at all, takes the first user's idle one at once, as PgBouncer's evict_connection does. Sluice
     * used to shield it for min_connection_lifetime (30 s), so that login ran into
     * query_wait_timeout; the first user then takes it back the same way.
     */
    @Test
    void aUserWithNoServerTakesTheDatabasesOnlyIdleServerAtOnce() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("one");
        String userA = PgCluster.uniqueName("oa");
        String userB = PgCluster.uniqueName("ob");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        pg.createUser(userA, "secret-a", Encryption.MD5);
        pg.createUser(userB, "secret-b", Encryption.MD5);
        String ini = "[databases]\n" + db + " = host=127.0.0.1 port=" + pg.port() + " max_db_connections=1\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\nquery_wait_timeout = 3\n"
                + "admin_users = postgres\n";
        String users = "\"postgres\" \"\"\n\"" + userA + "\" \"secret-a\"\n\"" + userB + "\" \"secret-b\"\n";
        Pooler.sameAnswers("max_db_connections = 1, two users", ini, users, p -> {
            try (Connection a = p.connect(db, userA); Connection b = p.connect(db, userB)) {
                List<String> out = new java.util.ArrayList<>();
                out.add("A: " + Queries.run(a, "select 1"));
                out.add("B: " + Queries.run(b, "select 2"));
                out.add("A again: " + Queries.run(a, "select 3"));
                Await.until(Duration.ofSeconds(10), () -> p.log().contains("closing because: evicted"), p + " evicting");
                out.add("evicted");
                return out;
            }
        }, "A: 1", "B: 2", "A again: 3", "evicted");
    }

    private static void run(PgCluster pg, String db, String ini, String users, Path script, String userA, String userB,
                            String warm) throws Exception {

        Map<String, Integer> bDone = new LinkedHashMap<>();
        Map<String, Double> bHeld = new LinkedHashMap<>();
        Map<String, String> coordinator = Map.of();
        for (String kind : List.of("pgbouncer", "sluice", "pgbouncer", "sluice")) {   // two rounds, interleaved
            try (Pooler p = kind.equals("sluice") ? Pooler.sluice(ini, users) : Pooler.pgbouncer(ini, users);
                 BackendSampler held = new BackendSampler(pg, db, userB)) {
                transactions(bench(p, "postgres", warm, 10, 2, script));           // warm-up, other database
                CompletableFuture<ProcessResult> a = CompletableFuture.supplyAsync(() -> bench(p, userA, db, 10, 2, script));
                // The scenario's own timing: B arrives 1.5 s after A, while A still runs.
                ProcessResult b = CompletableFuture.supplyAsync(() -> {
                    held.start();
                    return bench(p, userB, db, 5, 3, script);
                }, CompletableFuture.delayedExecutor(1500, TimeUnit.MILLISECONDS)).get(60, TimeUnit.SECONDS);
                held.stop();
                transactions(a.get(60, TimeUnit.SECONDS));
                bDone.merge(kind, transactions(b), Math::max);                 // each pooler's better round
                bHeld.merge(kind, held.average(), Math::max);
                System.out.printf("%s, user B held %.2f backends on average:%n%s%n", kind, held.average(), b.stdout());
                if (!p.isPgBouncer()) {
                    coordinator = CoordinatorIT.row(p.port(), db);
                    assertThat(Long.parseLong(coordinator.get("evictions"))).as("evictions counted " + coordinator)
                            .isPositive();
                }
            }
            Await.until(Duration.ofSeconds(20), () -> backends(pg, db) == 0, "the backends of " + kind + " gone");
        }
        System.out.printf("issue 16 scenario, B's transactions in 3 s: %s, backends B held on average: %s; "
                + "Sluice's SHOW POOL_COORDINATOR: %s%n", bDone, bHeld, coordinator);
        // Starvation itself: the backends the coordinator let B hold, as PostgreSQL saw them.
        assertThat(bHeld.get("sluice")).as("backends B held through Sluice vs PgBouncer " + bHeld)
                .isGreaterThanOrEqualTo(0.9 * bHeld.get("pgbouncer"));
        // Throughput also carries each pooler's CPU per query, which a JVM on two shared cores pays
        // more of (Sluice's B ran ~25 instead of ~22 ms a transaction at load 15-20 here): 20 % slack.
        assertThat(bDone.get("sluice")).as("B's transactions through Sluice vs PgBouncer's " + bDone)
                .isGreaterThanOrEqualTo((int) (0.8 * bDone.get("pgbouncer")));
        assertThat(coordinator.get("exhaustions")).isEqualTo("0");
        assertThat(Integer.parseInt(coordinator.get("current"))).isLessThanOrEqualTo(10);
    }

    /** Samples how many backends of one user PostgreSQL has for a database, every 50 ms, over one connection. */
    private static final class BackendSampler implements AutoCloseable {
        private final Connection conn;
        private final PreparedStatement count;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private long sum;
        private int samples;

        BackendSampler(PgCluster pg, String db, String user) throws SQLException {
            conn = pg.connect("postgres", PgCluster.SUPERUSER, null);
            count = conn.prepareStatement("select count(*) from pg_stat_activity where datname = ? and usename = ?"
                    + " and backend_type = 'client backend'");
            count.setString(1, db);
            count.setString(2, user);
        }

        void start() {
            timer.scheduleAtFixedRate(this::sample, 0, 50, TimeUnit.MILLISECONDS);
        }

        private synchronized void sample() {
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                sum += rs.getInt(1);
                samples++;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        void stop() throws InterruptedException {
            timer.shutdown();
            assertThat(timer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(samples).as("pg_stat_activity samples").isGreaterThan(20);
        }

        synchronized double average() {
            return samples == 0 ? 0 : (double) sum / samples;
        }

        @Override
        public void close() throws SQLException {
            timer.shutdownNow();
            conn.close();
        }
    }

    private static ProcessResult bench(Pooler p, String user, String db, int clients, int seconds, Path script) {
        return ProcessRunner.pgbenchCommand("-n", "-c", String.valueOf(clients), "-j", "2", "-T", String.valueOf(seconds),
                "-f", script.toString(), "-h", "127.0.0.1", "-p", String.valueOf(p.port()), "-U", user, db).run();
    }

    /** Transactions pgbench finished; fails the test on any failed one or a pgbench error. */
    private static int transactions(ProcessResult r) {
        Matcher done = PROCESSED.matcher(r.stdout());
        assertThat(done.find()).as(r.describe()).isTrue();
        Matcher failed = FAILED.matcher(r.stdout());
        assertThat(failed.find() ? failed.group(1) : "0").as(r.describe()).isEqualTo("0");
        return Integer.parseInt(done.group(1));
    }

    private static int backends(PgCluster pg, String db) {
        return Integer.parseInt(pg.query("select count(*) from pg_stat_activity where datname = '" + db
                + "' and backend_type = 'client backend'").get(0).get(0));
    }
}
