package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, acceptance 1 to 3, against a real primary and a streaming replica made with
 * {@code pg_basebackup -R}. Database {@code ro} lists both (the primary first), with a 1 s lag
 * limit, checks every 0.25 s, fall 3, rise 2, and reads falling back to the primary; {@code
 * ronly} lists the replica alone, so its lag is the replica's own measure (no primary to ask).
 */
class ReplicaLagIT {
    private static final double MAX_LAG = 1.0;
    private static PgCluster primary;
    private static PgCluster replica;
    private static SluiceFixture sluice;
    private static final List<String> COLUMNS = List.of("database", "host", "role", "state", "lag_seconds",
            "lag_bytes", "lag_source", "last_check", "servers_open");

    @BeforeAll
    static void start() throws Exception {
        primary = PgCluster.builder().config("max_connections = 40").start();
        replica = PgCluster.builder().config("hot_standby = on").startStandbyOf(primary);
        primary.exec("CREATE TABLE ticks (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())");
        String keys = " dbname=postgres user=postgres max_replica_lag=1 replica_check_interval=0.25 replica_fall=3"
                + " replica_rise=2";
        sluice = SluiceFixture.start(primary, "ro = host=127.0.0.1,127.0.0.1 port=" + primary.port() + ","
                        + replica.port() + keys + " replica_fallback=primary\n"
                        + "ronly = host=127.0.0.1 port=" + replica.port() + keys + "\n",
                "pool_mode = transaction\nauth_type = trust\nadmin_users = postgres\n", "\"postgres\" \"\"\n");
        awaitState("ro", replica, "up", "replica");
        awaitState("ro", primary, "up", "primary");
    }

    @AfterAll
    static void stop() throws Exception {
        if (sluice != null) {
            sluice.close();
        }
        if (replica != null) {
            replica.close();
        }
        if (primary != null) {
            primary.close();
        }
    }

    @Test
    void pausedReplayDrainsTheReplicaWhileItsRunningReadFinishesAndResumeBringsItBack() throws Exception {
        assertThat(readGoesToReplica("ro")).as("reads go to the replica while it is in service").isTrue();
        Connection longRead = Jdbc.connect("127.0.0.1", sluice.port, "ro", "postgres", null);
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> query(longRead,
                "select pg_is_in_recovery()::text || ' ' || count(*) from pg_sleep(6), ticks"));
        Await.until(Duration.ofSeconds(10), () -> hostRow("ro", replica).get("servers_open").equals("1"),
                "the long read running on the replica");

        replica.exec("SELECT pg_wal_replay_pause()");
        long paused = System.nanoTime();
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            while (writing.get()) {
                primary.exec("INSERT INTO ticks DEFAULT VALUES");
            }
        });
        try {
            awaitState("ro", replica, "draining", "replica");
            double drainedAfter = (System.nanoTime() - paused) / 1e9;
            Map<String, String> row = hostRow("ro", replica);
            System.out.println("replay paused: draining after " + String.format("%.2f", drainedAfter)
                    + " s (limit 1 s + fall 3 x 0.25 s), SHOW HOSTS " + row);
            assertThat(Double.parseDouble(row.get("lag_seconds"))).isGreaterThan(MAX_LAG);
            assertThat(readGoesToReplica("ro")).as("new transactions go to the primary").isFalse();
            assertThat(read.get(30, TimeUnit.SECONDS)).as("the read that was running finishes").startsWith("true ");
            Await.until(Duration.ofSeconds(10), () -> hostRow("ro", replica).get("servers_open").equals("0"),
                    "the drained replica's server closing once released");
        } finally {
            writing.set(false);
            writer.get(30, TimeUnit.SECONDS);
            longRead.close();
        }
        replica.exec("SELECT pg_wal_replay_resume()");
        awaitState("ro", replica, "up", "replica");
        System.out.println("replay resumed: " + hostRow("ro", replica));
        assertThat(readGoesToReplica("ro")).isTrue();
    }

    private static boolean readGoesToReplica(String db) throws SQLException {
        try (Connection c = Jdbc.connect("127.0.0.1", sluice.port, db, "postgres", null)) {
            return query(c, "select pg_is_in_recovery()::text").equals("true");
        }
    }

    static String query(Connection c, String sql) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    static void awaitState(String db, PgCluster host, String state, String role) {
        Await.until(Duration.ofSeconds(20), () -> {
            Map<String, String> r = hostRow(db, host);
            return state.equals(r.get("state")) && role.equals(r.get("role"));
        }, db + " host " + host.port() + " " + role + " " + state);
    }

    /** The SHOW HOSTS row of {@code host} in {@code db}, column name to text. */
    static Map<String, String> hostRow(String db, PgCluster host) {
        for (Map<String, String> r : showHosts()) {
            if (r.get("database").equals(db) && r.get("host").equals("127.0.0.1:" + host.port())) {
                return r;
            }
        }
        return Map.of("state", "", "role", "", "servers_open", "");
    }

    static List<Map<String, String>> showHosts() {
        List<Map<String, String>> rows = new ArrayList<>();
        for (String[] r : FaultProbe.console(sluice.port, "SHOW HOSTS")) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < COLUMNS.size() && i < r.length; i++) {
                row.put(COLUMNS.get(i), r[i]);
            }
            rows.add(row);
        }
        return rows;
    }
}
