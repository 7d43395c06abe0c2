package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients counted in the pool that serves them (force_user), and a client that dies inside a
 * transaction: its server is closed, so the next client sees none of its session.
 */
class SessionPlacesIT {
    static PgCluster pg;
    static SluiceFixture s;
    static String db;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("places");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        s = SluiceFixture.start(pg,
                "forced = host=127.0.0.1 port=$PGPORT dbname=" + db + " user=postgres pool_size=1\n"
                        + db + " = host=127.0.0.1 port=$PGPORT pool_size=1",
                "auth_type = trust\npool_mode = transaction\nadmin_users = postgres",
                "\"postgres\" \"\"\n\"alice\" \"\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        s.close();
    }

    @Test
    void forceUserClientsAreCountedInThePoolThatServesThem() throws Exception {
        var pool = Executors.newSingleThreadExecutor();
        try (Connection holder = Jdbc.connect("127.0.0.1", s.port, "forced", "alice", null);
             Connection waiter = Jdbc.connect("127.0.0.1", s.port, "forced", "alice", null)) {
            holder.setAutoCommit(false);
            holder.createStatement().execute("select 1");
            Future<?> second = pool.submit(() -> {
                waiter.createStatement().execute("select 2");
                return null;
            });
            awaitTrue(() -> poolRow("forced").get(3).equals("1"), "one client waiting in forced/postgres");
            List<String> row = poolRow("forced");
            assertThat(row.get(1)).as("SHOW POOLS user").isEqualTo("postgres");
            assertThat(row.get(2)).as("cl_active").isEqualTo("1");
            holder.commit();
            second.get(10, TimeUnit.SECONDS);
            awaitTrue(() -> poolRow("forced").get(3).equals("0"), "nobody waits once the holder committed");
            assertThat(poolRow("forced").get(2)).as("cl_active").isEqualTo("2");
        } finally {
            pool.shutdownNow();
        }
        awaitTrue(() -> poolRow("forced").get(2).equals("0"), "closed clients leave the lists");
    }

    @Test
    void aClientKilledInsideATransactionTakesItsServerWithIt() throws Exception {
        Properties named = new Properties();
        named.setProperty("prepareThreshold", "1");
        int deadPid;
        Connection doomed = Jdbc.connect("127.0.0.1", s.port, db, "postgres", null, named);
        doomed.setAutoCommit(false);
        doomed.createStatement().execute("prepare leftover as select 1");
        try (PreparedStatement ps = doomed.prepareStatement("select pg_backend_pid()");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            deadPid = rs.getInt(1);
        }
        doomed.abort(Runnable::run); // closes the socket without Terminate, as a killed process does
        awaitTrue(() -> pg.query("select count(*) from pg_stat_activity where pid = " + deadPid)
                .get(0).get(0).equals("0"), "the backend of the killed client is closed");
        try (Connection next = Jdbc.connect("127.0.0.1", s.port, db, "postgres", null, named)) {
            next.setAutoCommit(false);
            try (PreparedStatement ps = next.prepareStatement("select pg_backend_pid()");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).isNotEqualTo(deadPid);
            }
            try (Statement st = next.createStatement();
                 ResultSet rs = st.executeQuery("select count(*) from pg_prepared_statements where name = 'leftover'")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the departed client's statements").isZero();
            }
            next.commit();
        }
    }

    /** The SHOW POOLS row of {@code database} (exactly one), cells as text. */
    static List<String> poolRow(String database) {
        ProcessResult r = ProcessRunner.of("psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p", String.valueOf(s.port),
                "-U", "postgres", "-d", "pgbouncer", "-c", "show pools").run().requireSuccess();
        List<List<String>> rows = new ArrayList<>();
        for (String line : r.stdout().split("\n")) {
            List<String> cells = List.of(line.split("\\|", -1));
            if (cells.get(0).equals(database)) {
                rows.add(cells);
            }
        }
        assertThat(rows).as("SHOW POOLS rows of " + database + ":\n" + r.stdout()).hasSize(1);
        return rows.get(0);
    }

    static void awaitTrue(BooleanSupplier condition, String what) {
        Await.until(Duration.ofSeconds(15), condition, what);
    }
}
