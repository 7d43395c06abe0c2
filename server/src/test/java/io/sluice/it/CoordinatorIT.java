package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.Await;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Coordinator mode on real PostgreSQL: two users share one database with max_db_connections = 10
 * and a coordinator reserve of 2. User A fills the database and goes idle; user B's burst is
 * served by the reserve and by evicting A's idle backends (older than the 1 s lifetime floor),
 * PostgreSQL never sees more than 12 backends for the database, and SHOW POOL_COORDINATOR
 * shows evictions, reserve_acq and reserve_used moving, reserve_used back at 0 one retain cycle
 * after the burst.
 */
class CoordinatorIT {
    static final int MAX_DB = 10;
    static final int RESERVE = 2;
    static final int B_CLIENTS = 8;

    static PgCluster pg;
    static SluiceFixture sluice;
    static String db;
    static String userA;
    static String userB;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("coord");
        userA = PgCluster.uniqueName("ua");
        userB = PgCluster.uniqueName("ub");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        pg.createUser(userA, "secret-a", Encryption.SCRAM);
        pg.createUser(userB, "secret-b", Encryption.SCRAM);
        sluice = SluiceFixture.start(pg,
                db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 20\nmax_client_conn = 100\n"
                        + "admin_users = postgres\nmax_db_connections = " + MAX_DB + "\n"
                        + "db_reserve_pool_size = " + RESERVE + "\nmin_connection_lifetime = 1\n"
                        + "retain_connections_time = 1\nquery_wait_timeout = 60\n",
                "\"postgres\" \"\"\n\"" + userA + "\" \"secret-a\"\n\"" + userB + "\" \"secret-b\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        if (sluice != null) {
            sluice.close();
        }
    }

    @Test
    void userBIsServedByReserveAndEvictionWithinTheDatabaseBudget() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(MAX_DB + B_CLIENTS);
        try (BackendWatcher watcher = new BackendWatcher(pg, db)) {
            // User A fills the database: ten transactions open at once, then all idle.
            holdTransactions(pool, userA, MAX_DB, () -> { });
            Await.until(Duration.ofSeconds(20), () -> coordinator().get("current").equals(String.valueOf(MAX_DB)),
                    "A holds max_db_connections");
            assertThat(backends(userA)).isEqualTo(MAX_DB);

            // User B bursts: eight transactions at once while A is idle.
            Map<String, String>[] during = new Map[1];
            holdTransactions(pool, userB, B_CLIENTS, () -> during[0] = coordinator());

            assertThat(Long.parseLong(during[0].get("reserve_used"))).isEqualTo(RESERVE);
            assertThat(Long.parseLong(during[0].get("reserve_acq"))).isGreaterThanOrEqualTo(RESERVE);
            long evicted = Long.parseLong(during[0].get("evictions"));
            assertThat(evicted).isGreaterThanOrEqualTo(B_CLIENTS - RESERVE);
            assertThat(Long.parseLong(during[0].get("current"))).isEqualTo(MAX_DB + RESERVE);
            // every eviction took one of A's idle servers. One more than B needed can happen: a
            // server returned to B's pool serves its oldest waiting client even while that client's
            // connect is in flight (PgBouncer's order), and the connect's server then idles
            assertThat(backends(userA)).isEqualTo(MAX_DB - evicted);

            // After the burst the retain task gives the reserve back within a cycle or two.
            Await.until(Duration.ofSeconds(10), () -> coordinator().get("reserve_used").equals("0"),
                    "reserve_used back to 0 after the burst");
            assertThat(watcher.samples()).as("pg_stat_activity samples").isGreaterThan(5);
            assertThat(watcher.max()).as("backends PostgreSQL saw for the database").isLessThanOrEqualTo(MAX_DB + RESERVE);
            assertThat(coordinator().get("exhaustions")).isEqualTo("0");
            System.out.printf("SHOW POOL_COORDINATOR during B's burst: %s; after: %s; max backends %d%n",
                    during[0], coordinator(), watcher.max());
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Opens {@code n} clients of {@code user}, each inside a transaction (so each holds a server
     * connection), runs {@code whileHeld} once all are inside, then commits and closes them all.
     */
    private static void holdTransactions(ExecutorService pool, String user, int n, Runnable whileHeld) throws Exception {
        CountDownLatch inside = new CountDownLatch(n);
        CountDownLatch release = new CountDownLatch(1);
        List<Future<Void>> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            done.add(pool.submit(() -> {
                try (Connection c = Jdbc.connect("127.0.0.1", sluice.port, db, user, null)) {
                    c.setAutoCommit(false);
                    try (Statement st = c.createStatement()) {
                        st.execute("select pg_backend_pid()");
                    }
                    inside.countDown();
                    assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
                    c.commit();
                }
                return null;
            }));
        }
        try {
            assertThat(inside.await(30, TimeUnit.SECONDS)).as(user + ": all clients inside a transaction").isTrue();
            whileHeld.run();
        } finally {
            release.countDown();
        }
        for (Future<Void> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    private static int backends(String user) {
        return Integer.parseInt(pg.query("select count(*) from pg_stat_activity where datname = '" + db
                + "' and usename = '" + user + "' and backend_type = 'client backend'").get(0).get(0));
    }

    /** This database's SHOW POOL_COORDINATOR row, column name to value, read with psql. */
    static Map<String, String> coordinator() {
        return row(sluice.port, db);
    }

    /** Database {@code db}'s SHOW POOL_COORDINATOR row of the Sluice on {@code port}. */
    static Map<String, String> row(int port, String db) {
        ProcessResult r = ProcessRunner.of("psql", "-X", "-A", "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-U", "postgres", "-d", "pgbouncer", "-c", "show pool_coordinator").run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        String[] lines = r.stdout().split("\n");
        String[] names = lines[0].split("\\|");
        for (String line : lines) {
            String[] cells = line.split("\\|", -1);
            if (cells.length == names.length && cells[0].equals(db)) {
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < names.length; i++) {
                    row.put(names[i], cells[i]);
                }
                return row;
            }
        }
        throw new AssertionError("no " + db + " row in:\n" + r.stdout());
    }
}
