package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBinaries;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, faults (b) and (d), on Sluice and then PgBouncer 1.18 from the same ini: every pooled
 * server killed by {@code pg_terminate_backend} (clients that held one in a transaction get one
 * error, the others none, and the pool refills), and a client SIGKILLed while idle in a
 * transaction that holds a row lock (the pooler closes that server, so PostgreSQL rolls back and
 * the lock is free within 1 s).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServerFaultsIT {
    private static final String USERS = "\"postgres\" \"\"\n";
    private static final int POOL = 4;
    private static final long LOCK_FREE_BOUND_MILLIS = 1000;

    private static PgCluster pg;
    private static String db;

    @BeforeAll
    static void start() {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("faults");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        pg.exec(db, "CREATE TABLE locked (id int PRIMARY KEY, v text); INSERT INTO locked VALUES (1, 'row')");
    }

    private static String ini() {
        return "[databases]\n" + db + " = host=127.0.0.1 port=" + pg.port() + "\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = " + POOL + "\n"
                + "admin_users = postgres\nlog_stats = 0\nserver_login_retry = 1\n"
                + "ignore_startup_parameters = extra_float_digits\n";
    }

    @Test
    void terminatingEveryPooledServerCostsOnlyTheClientsInATransactionOneErrorAndThePoolRefills() throws Exception {
        Map<String, List<String>> seen = new LinkedHashMap<>();
        for (Pooler p : Pooler.both(ini(), USERS)) {
            try (p) {
                seen.put(p.name, terminateAll(p));
            }
        }
        System.out.println("pg_terminate_backend of every pooled server: " + seen);
        assertThat(seen.get("sluice")).containsExactly(
                "client 0 (in a transaction): ERROR: FATAL: terminating connection due to administrator command",
                "client 0 after reconnecting: 1",
                "client 1 (in a transaction): ERROR: FATAL: terminating connection due to administrator command",
                "client 1 after reconnecting: 1",
                "client 2 (idle): 1", "client 3 (idle): 1",
                "pool refilled: true");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    /**
     * Four clients take the pool's four servers; two stay in their transaction, two commit (their
     * servers go idle). Every server is terminated, then each client runs {@code select 1}; one
     * that fails reconnects once and tries again.
     */
    private static List<String> terminateAll(Pooler p) throws Exception {
        List<String> out = new ArrayList<>();
        List<Connection> clients = new ArrayList<>();
        try {
            for (int i = 0; i < POOL; i++) {
                Connection c = p.connect(db, FaultProbe.socketTimeout(30));
                clients.add(c);
                c.setAutoCommit(false);
                assertThat(Queries.run(c, "select 1")).isEqualTo("1");
            }
            for (Connection idle : clients.subList(2, POOL)) {
                idle.commit();
                idle.setAutoCommit(true);
            }
            Await.until(Duration.ofSeconds(10), () -> FaultProbe.backends(pg, db) == POOL, POOL + " backends");
            pg.query("select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = '" + db
                    + "' and pid <> pg_backend_pid()");
            Await.until(Duration.ofSeconds(10), () -> FaultProbe.backends(pg, db) == 0, "every backend gone");
            for (int i = 0; i < POOL; i++) {
                Connection c = clients.get(i);
                String first = Queries.run(c, "select 1");
                out.add("client " + i + (i < 2 ? " (in a transaction): " : " (idle): ") + first);
                if (first.startsWith("ERROR")) {
                    try (Connection again = p.connect(db, FaultProbe.socketTimeout(30))) {
                        out.add("client " + i + " after reconnecting: " + Queries.run(again, "select 1"));
                    }
                }
            }
        } finally {
            clients.forEach(Queries::closeQuietly);
        }
        out.add("pool refilled: " + Await.poll(Duration.ofSeconds(10),
                () -> FaultProbe.servers(p, db) >= 1 && FaultProbe.servers(p, db) == FaultProbe.backends(pg, db)));
        return out;
    }

    @Test
    void aKilledClientIdleInATransactionReleasesItsRowLockWithinASecond() throws Exception {
        Map<String, Long> freedAfter = new LinkedHashMap<>();
        for (Pooler p : Pooler.both(ini(), USERS)) {
            try (p) {
                freedAfter.put(p.name, killHolder(p));
                Await.until(Duration.ofSeconds(10),
                        () -> p.log().contains("client disconnect while server was not ready"),
                        p + " closing the server of the killed client");
            }
        }
        System.out.println("row lock free after SIGKILL of its psql, ms: " + freedAfter);
        freedAfter.forEach((name, ms) -> assertThat(ms).as("%s: ms until the row lock was free", name)
                .isLessThanOrEqualTo(LOCK_FREE_BOUND_MILLIS));
    }

    /** psql takes the row lock and stays idle in its transaction; it is SIGKILLed; ms until the lock is free. */
    private static long killHolder(Pooler p) throws Exception {
        Process psql = new ProcessBuilder(PgBinaries.tool("psql"), "-X", "-q", "-h", "127.0.0.1", "-p",
                Integer.toString(p.port()), "-U", PgCluster.SUPERUSER, db)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (Connection direct = pg.connect(db, PgCluster.SUPERUSER, null); Statement st = direct.createStatement()) {
            OutputStream in = psql.getOutputStream();
            in.write("begin;\nselect v from locked where id = 1 for update;\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            Await.until(Duration.ofSeconds(20), () -> pg.query(db, "select count(*) from pg_stat_activity where state ="
                    + " 'idle in transaction' and query like '%for update%'").get(0).get(0).equals("1"),
                    "psql idle in transaction holding the row lock through " + p);
            assertThat(lockFree(st)).as("the row is locked while psql lives").isFalse();
            psql.destroyForcibly(); // SIGKILL: no Terminate message, the socket just closes
            long killed = System.nanoTime();
            Await.until(Duration.ofSeconds(30), () -> lockFree(st), "the row lock to be released");
            return (System.nanoTime() - killed) / 1_000_000;
        } finally {
            psql.destroyForcibly();
            psql.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean lockFree(Statement st) {
        try {
            st.execute("begin; select v from locked where id = 1 for update nowait; rollback");
            return true;
        } catch (SQLException e) {
            if (!"55P03".equals(e.getSQLState())) {
                throw new IllegalStateException(e);
            }
            try {
                st.execute("rollback");
            } catch (SQLException ignored) {
                // nothing to roll back
            }
            return false;
        }
    }
}
