package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 19, acceptance 1 to 3, against a real primary and a streaming replica made with
 * {@code pg_basebackup -R}. Database {@code ro} lists both (the primary first), with a 1 s lag
 * limit, checks every 0.25 s, fall 3, rise 2, and reads falling back to the primary; {@code
 * ronly} lists the replica alone, so its lag is the replica's own measure (no primary to ask), and
 * refuses reads when it is out ({@code replica_fallback = error}).
 */
class ReplicaLagIT {
    private static final double MAX_LAG = 1.0;
    /** Four times the limit proves the quiet-primary point in CI; {@code -Dsluice.it.quietSeconds=60} for the minute. */
    private static final long QUIET_SECONDS = Long.getLong("sluice.it.quietSeconds", 4);
    private static final int METRICS_PORT = io.sluice.testkit.FreePorts.next();
    private static final int HEALTH_PORT = io.sluice.testkit.FreePorts.next();
    private static PgCluster primary;
    private static PgCluster replica;
    private static SluiceFixture sluice;
    private static final List<String> COLUMNS = List.of("database", "host", "role", "state", "lag_seconds",
            "lag_bytes", "lag_source", "last_check", "servers_open");

    @BeforeAll
    static void start() throws Exception {
        // no autovacuum: its ANALYZE commits would end the quiet period the quiet-primary test needs
        primary = PgCluster.builder().config("max_connections = 40", "autovacuum = off").start();
        replica = PgCluster.builder().config("hot_standby = on").startStandbyOf(primary);
        primary.exec("CREATE TABLE ticks (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())");
        String keys = " dbname=postgres user=postgres max_replica_lag=1 replica_check_interval=0.25 replica_fall=3"
                + " replica_rise=2";
        sluice = SluiceFixture.start(primary, "ro = host=127.0.0.1,127.0.0.1 port=" + primary.port() + ","
                        + replica.port() + keys + " replica_fallback=primary\n"
                        + "ronly = host=127.0.0.1 port=" + replica.port() + keys + " replica_fallback=error\n",
                "pool_mode = transaction\nauth_type = trust\nadmin_users = postgres\nprometheus_listen_addr = 127.0.0.1\n"
                        + "prometheus_listen_port = " + METRICS_PORT + "\nhealth_listen_port = " + HEALTH_PORT + "\n",
                "\"postgres\" \"\"\n");
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

        long paused = System.nanoTime();
        try (longRead) {
            whileReplayPaused(() -> {
            awaitState("ro", replica, "draining", "replica");
            double drainedAfter = (System.nanoTime() - paused) / 1e9;
            Map<String, String> row = hostRow("ro", replica);
            System.out.println("replay paused: draining after " + String.format("%.2f", drainedAfter)
                    + " s (limit 1 s + fall 3 x 0.25 s), SHOW HOSTS " + row);
            assertThat(Double.parseDouble(row.get("lag_seconds"))).isGreaterThan(MAX_LAG);
            String series = "{database=\"ro\",host=\"127.0.0.1:" + replica.port() + "\",role=\"replica\"";
            String metrics = metrics();
            assertThat(metrics).contains("sluice_host_lag_seconds" + series + "}", "sluice_host_lag_bytes" + series + "}",
                    "sluice_host_servers_open" + series + ",state=\"draining\"}");
            assertThat(readGoesToReplica("ro")).as("new transactions go to the primary").isFalse();
            awaitState("ronly", replica, "draining", "replica");
            assertThatThrownBy(() -> readGoesToReplica("ronly")).as("replica_fallback = error")
                    .hasMessageContaining("no replica of database \"ronly\" is within max_replica_lag");
            assertThat(read.get(30, TimeUnit.SECONDS)).as("the read that was running finishes").startsWith("true ");
            Await.until(Duration.ofSeconds(10), () -> hostRow("ro", replica).get("servers_open").equals("0"),
                    "the drained replica's server closing once released");
            });
        }
        awaitState("ro", replica, "up", "replica");
        System.out.println("replay resumed: " + hostRow("ro", replica));
        assertThat(readGoesToReplica("ro")).isTrue();
    }

    /**
     * Acceptance 2: a primary with nothing to write for 4 s, four times the 1 s limit (long enough
     * for the age of the last replayed transaction, which naive replica lag reports, to cross
     * it; the 60 s would only make the same point slower). Neither the primary's view
     * ({@code ro}) nor the replica's own ({@code ronly}, received == replayed) calls it lag.
     */
    @Test
    void aQuietPrimaryIsNotLag() throws Exception {
        primary.exec("INSERT INTO ticks DEFAULT VALUES");
        Await.until(Duration.ofSeconds(20), () -> hostRow("ro", replica).get("lag_bytes").equals("0")
                && hostRow("ronly", replica).get("lag_bytes").equals("0"), "the replica caught up");
        long quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(QUIET_SECONDS);
        int samples = 0;
        while (System.nanoTime() < quietUntil) {
            for (String db : List.of("ro", "ronly")) {
                Map<String, String> r = hostRow(db, replica);
                assertThat(r.get("state")).as(db + " during the quiet period: " + r).isEqualTo("up");
            }
            samples++;
        }
        String naive = replica.query("select extract(epoch from now() - pg_last_xact_replay_timestamp())::numeric(10,3)")
                .get(0).get(0);
        System.out.println("quiet primary, " + samples + " samples: naive now() - pg_last_xact_replay_timestamp() = "
                + naive + " s; SHOW HOSTS ro " + hostRow("ro", replica) + "; ronly " + hostRow("ronly", replica));
        assertThat(Double.parseDouble(naive)).as("the naive measure would have called it lag").isGreaterThan(MAX_LAG);
        assertThat(hostRow("ronly", replica).get("lag_source")).isEqualTo("replica");
        assertThat(readGoesToReplica("ro")).isTrue();
    }

    /**
     * Acceptance 3: the seed's cron, about 150 MB of WAL in a few seconds, with a 1 s limit. The
     * replica leaves service only on seconds: whatever the bytes behind, it stays up while the
     * measured seconds stay under the limit, and a drain (if this machine is slow enough to
     * cause one) shows seconds over it.
     */
    @Test
    void aWalBurstIsJudgedBySecondsNotBytes() throws Exception {
        primary.exec("CREATE TABLE IF NOT EXISTS burst (id int, pad text)");
        List<Map<String, String>> samples = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean sampling = new AtomicBoolean(true);
        CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> {
            while (sampling.get()) {
                samples.add(hostRow("ro", replica));
            }
        });
        String before = primary.query("select pg_current_wal_lsn()::text").get(0).get(0);
        try {
            primary.exec("INSERT INTO burst SELECT g, repeat('x', 1000) FROM generate_series(1, 140000) g");
            Await.until(Duration.ofSeconds(60), () -> hostRow("ro", replica).get("lag_bytes").equals("0"),
                    "the replica caught up after the burst");
        } finally {
            sampling.set(false);
            sampler.get(30, TimeUnit.SECONDS);
        }
        long wal = Long.parseLong(primary.query("select pg_wal_lsn_diff(pg_current_wal_lsn(), '" + before
                + "')::bigint").get(0).get(0));
        double maxSeconds = 0;
        long maxBytes = 0;
        boolean drained = false;
        for (Map<String, String> r : samples) {
            maxSeconds = Math.max(maxSeconds, number(r.get("lag_seconds")));
            maxBytes = Math.max(maxBytes, (long) number(r.get("lag_bytes")));
            if (r.get("state").equals("draining")) {
                drained = true;
                assertThat(number(r.get("lag_seconds"))).as("drained on seconds: " + r).isGreaterThan(0);
            }
        }
        System.out.printf("WAL burst of %.1f MB: %d samples, most behind %.1f MB and %.3f s; replica %s%n",
                wal / 1e6, samples.size(), maxBytes / 1e6, maxSeconds, drained ? "drained" : "stayed up");
        assertThat(wal).as("the burst's WAL").isGreaterThan(100_000_000L);
        if (maxSeconds < MAX_LAG) {
            assertThat(drained).as("seconds stayed under the limit, whatever the bytes").isFalse();
        }
    }

    /**
     * Acceptance 4: HAProxy in front of the replica, weighted by {@code agent-check} against
     * Sluice's health port. When Sluice drains the replica, HAProxy's weight for it drops to 0
     * and the session HAProxy already carries to it stays open and keeps working.
     */
    @Test
    void haproxyAgentCheckDrainsTheReplicaAndKeepsItsSessions() throws Exception {
        assertThat(http("/health/ro")).isEqualTo("200 up");
        assertThat(http("/health/nosuch")).startsWith("404");
        org.junit.jupiter.api.Assumptions.assumeTrue(HaproxyProcess.available(), "Debian haproxy");
        int haPort = io.sluice.testkit.FreePorts.next();
        String hostLabel = "127.0.0.1:" + replica.port();
        java.nio.file.Path dir = io.sluice.testkit.ScratchDir.create("haproxy");
        try (HaproxyProcess ha = HaproxyProcess.start(dir, "defaults\n    mode tcp\n    timeout connect 5s\n"
                + "    timeout client 60s\n    timeout server 60s\n"
                + "listen reads\n    bind 127.0.0.1:" + haPort + "\n"
                + "    server replica " + hostLabel + " weight 100 agent-check agent-addr 127.0.0.1 agent-port "
                + HEALTH_PORT + " agent-inter 200ms agent-send \"ro " + hostLabel + "\\n\"\n")) {
            Await.until(Duration.ofSeconds(20), () -> "100".equals(ha.stat("reads", "replica").get("weight")),
                    "HAProxy weighting the replica 100 from the agent");
            try (Connection session = Jdbc.connect("127.0.0.1", haPort, "postgres", "postgres", null)) {
                assertThat(query(session, "select pg_is_in_recovery()::text")).isEqualTo("true");
                whileReplayPaused(() -> {
                    awaitState("ro", replica, "draining", "replica");
                    Await.until(Duration.ofSeconds(20), () -> "0".equals(ha.stat("reads", "replica").get("weight")),
                            "HAProxy's weight for the draining replica dropping to 0");
                    Map<String, String> stat = ha.stat("reads", "replica");
                    System.out.println("HAProxy on the draining replica: status " + stat.get("status") + ", weight "
                            + stat.get("weight") + ", agent said: " + stat.get("agent_desc") + " / "
                            + stat.get("last_agt") + "; GET /health/ro/" + hostLabel + " -> "
                            + http("/health/ro/" + hostLabel));
                    assertThat(http("/health/ro/" + hostLabel)).startsWith("503 draining");
                    assertThat(query(session, "select pg_is_in_recovery()::text"))
                            .as("the session HAProxy carried to the replica stays open").isEqualTo("true");
                });
                awaitState("ro", replica, "up", "replica");
                Await.until(Duration.ofSeconds(20), () -> "100".equals(ha.stat("reads", "replica").get("weight")),
                        "HAProxy weighting the replica 100 again");
            }
        } finally {
            io.sluice.testkit.ScratchDir.delete(dir);
        }
    }

    interface Body {
        void run() throws Exception;
    }

    /** Runs {@code body} while the replica's replay is paused and the primary keeps writing; resumes after. */
    private static void whileReplayPaused(Body body) throws Exception {
        replica.exec("SELECT pg_wal_replay_pause()");
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            while (writing.get()) {
                primary.exec("INSERT INTO ticks DEFAULT VALUES");
            }
        });
        try {
            body.run();
        } finally {
            writing.set(false);
            writer.get(30, TimeUnit.SECONDS);
            replica.exec("SELECT pg_wal_replay_resume()");
        }
    }

    /** {@code GET path} on the health port: status code and body, one line. */
    private static String http(String path) throws Exception {
        var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + HEALTH_PORT + path))
                .timeout(Duration.ofSeconds(10)).build();
        var r = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build()
                .send(req, java.net.http.HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body().strip();
    }

    private static String metrics() throws Exception {
        var client = java.net.http.HttpClient.newHttpClient();
        var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + METRICS_PORT + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build();
        return client.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    }

    private static double number(String s) {
        return s == null || s.isEmpty() ? 0 : Double.parseDouble(s);
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

    /**
     * Lag checks come with a RELOAD that sets them and go with one that removes them: the checks'
     * tick runs only while a database has them (a pooler without them does not wake every 50 ms),
     * and its last run, when the checks go, drops their hosts from SHOW HOSTS.
     */
    @Test
    void lagChecksStartAndStopWithReload() throws Exception {
        String entry = "late = host=127.0.0.1,127.0.0.1 port=" + primary.port() + "," + replica.port()
                + " dbname=postgres user=postgres";
        try (SluiceFixture own = SluiceFixture.start(primary, entry + "\n",
                "pool_mode = transaction\nauth_type = trust\nadmin_users = postgres\n", "\"postgres\" \"\"\n")) {
            assertThat(showHosts(own.port)).as("no database has lag checks").isEmpty();
            Path ini = own.dir.resolve("pgbouncer.ini");
            String without = Files.readString(ini);
            Files.writeString(ini, without.replace(entry, entry + " max_replica_lag=1 replica_check_interval=0.25"));
            FaultProbe.console(own.port, "RELOAD");
            Await.until(Duration.ofSeconds(20), () -> showHosts(own.port).stream().anyMatch(r -> r.get("database")
                    .equals("late") && r.get("role").equals("replica") && r.get("state").equals("up")),
                    "the replica checked after the RELOAD that set max_replica_lag");

            Files.writeString(ini, without);
            FaultProbe.console(own.port, "RELOAD");
            Await.until(Duration.ofSeconds(10), () -> showHosts(own.port).isEmpty(),
                    "no host listed once the RELOAD removed the checks");
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
        return showHosts(sluice.port);
    }

    static List<Map<String, String>> showHosts(int port) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (String[] r : FaultProbe.console(port, "SHOW HOSTS")) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < COLUMNS.size() && i < r.length; i++) {
                row.put(COLUMNS.get(i), r[i]);
            }
            rows.add(row);
        }
        return rows;
    }
}
