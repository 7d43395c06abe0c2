package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which server a lone client gets in transaction mode, on Sluice and on Debian's PgBouncer with
 * the same settings: {@code server_round_robin = 0} keeps it on the server returned last (so
 * driver statement caches stay valid and surplus servers idle out), {@code = 1} rotates through
 * the idle servers oldest first. Each pooler has its own database, so pg_stat_activity counts
 * one pooler's backends.
 */
class ServerRoundRobinIT {
    static final String USERS = "\"postgres\" \"\"\n";
    static final int HELD = 3;
    static final int LONE_TRANSACTIONS = 10;

    /** A pooler under test, the database it pools, its port and what stops it. */
    private record Pooler(String name, String db, int port, AutoCloseable process) { }

    @ParameterizedTest(name = "server_round_robin = {0}")
    @ValueSource(ints = {0, 1})
    void loneClientAfterABurstGetsServersInServerRoundRobinOrder(int roundRobin) throws Exception {
        List<Pooler> poolers = start("rr" + roundRobin, settings(roundRobin, ""));
        Map<String, List<Long>> returnedBy = new LinkedHashMap<>();
        Map<String, List<Long>> pidsBy = new LinkedHashMap<>();
        try {
            for (Pooler p : poolers) {
                List<Long> returned = holdTransactionsThenCommitInOrder(p);
                List<Long> pids = new ArrayList<>();
                try (Connection lone = connect(p)) {
                    for (int i = 0; i < LONE_TRANSACTIONS; i++) {
                        pids.add(backendPid(lone));
                    }
                }
                System.out.printf("server_round_robin=%d %s: servers returned %s, lone client on %s%n",
                        roundRobin, p.name, returned, pids);
                returnedBy.put(p.name, returned);
                pidsBy.put(p.name, pids);
            }
        } finally {
            closeAll(poolers);
        }
        for (String name : pidsBy.keySet()) {
            List<Long> returned = returnedBy.get(name);
            List<Long> pids = pidsBy.get(name);
            if (roundRobin == 0) {
                // Most recently used first: the server committed last, every time.
                assertThat(pids).as(name).containsOnly(returned.get(HELD - 1));
            } else {
                // Round robin: the idle servers in the order they were returned, over and over.
                List<Long> rotation = new ArrayList<>();
                for (int i = 0; i < LONE_TRANSACTIONS; i++) {
                    rotation.add(returned.get(i % HELD));
                }
                assertThat(pids).as(name).containsExactlyElementsOf(rotation);
                assertThat(pids.stream().distinct().count()).as(name).isGreaterThan(1);
            }
        }
        if (pidsBy.size() == 2) {
            assertThat(pattern(pidsBy.get("sluice"))).as("Sluice's server sequence shaped like PgBouncer's")
                    .isEqualTo(pattern(pidsBy.get("pgbouncer")));
        }
    }

    @Test
    void serverIdleTimeoutClosesSurplusServersUnderLightLoadDownToMinPoolSize() throws Exception {
        List<Pooler> poolers = start("idle", settings(0, "min_pool_size = 1\nserver_idle_timeout = 2\n"));
        try {
            for (Pooler p : poolers) {
                holdTransactionsThenCommitInOrder(p);
                assertThat(backends(p.db)).as(p.name + " backends after the burst").isEqualTo(HELD);
                List<Long> pids = new ArrayList<>();
                long start = System.nanoTime();
                try (Connection lone = connect(p)) {
                    // The light load: one transaction per poll (polls back off to 100 ms apart).
                    Await.until(Duration.ofSeconds(20), () -> {
                        try {
                            pids.add(backendPid(lone));
                        } catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                        return backends(p.db) == 1;
                    }, p.name + " closing idle servers down to min_pool_size = 1");
                    pids.add(backendPid(lone));
                }
                System.out.printf("%s: %d backends -> 1 in %d ms under %d transactions on %s%n", p.name, HELD,
                        (System.nanoTime() - start) / 1_000_000, pids.size(), pids.stream().distinct().toList());
                assertThat(pids).as(p.name + ": the lone client kept its server").containsOnly(pids.get(0));
                assertThat(backends(p.db)).as(p.name + " backends at min_pool_size").isEqualTo(1);
            }
        } finally {
            closeAll(poolers);
        }
    }

    private static String settings(int roundRobin, String extra) {
        return "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 4\n"
                + "server_round_robin = " + roundRobin + "\n"
                + "ignore_startup_parameters = extra_float_digits\nlog_connections = 0\nlog_disconnections = 0\n"
                + extra;
    }

    /** Sluice, and PgBouncer when installed, each on a fresh database with the same [pgbouncer] settings. */
    private static List<Pooler> start(String tag, String settings) throws Exception {
        PgCluster pg = PgCluster.shared();
        List<Pooler> out = new ArrayList<>();
        String sluiceDb = PgCluster.uniqueName("sl_" + tag);
        pg.createDatabase(sluiceDb, PgCluster.SUPERUSER);
        SluiceFixture s = SluiceFixture.start(pg, sluiceDb + " = host=127.0.0.1 port=$PGPORT", settings, USERS);
        out.add(new Pooler("sluice", sluiceDb, s.port, s));
        if (PgBouncerProcess.available()) {
            String pgbDb = PgCluster.uniqueName("pgb_" + tag);
            pg.createDatabase(pgbDb, PgCluster.SUPERUSER);
            PgBouncerProcess b = PgBouncerProcess.start("[databases]\n" + pgbDb + " = host=127.0.0.1 port="
                    + pg.port() + "\n[pgbouncer]\n" + settings, USERS);
            out.add(new Pooler("pgbouncer", pgbDb, b.port(), b));
        }
        return out;
    }

    /**
     * {@value #HELD} clients each hold a transaction open at once (so {@value #HELD} servers exist),
     * then commit one after another; returns their backend pids in commit order.
     */
    private static List<Long> holdTransactionsThenCommitInOrder(Pooler p) throws SQLException {
        List<Connection> held = new ArrayList<>();
        try {
            List<Long> pids = new ArrayList<>();
            for (int i = 0; i < HELD; i++) {
                Connection c = connect(p);
                held.add(c);
                c.setAutoCommit(false);
                pids.add(backendPid(c));
            }
            assertThat(pids).as(p.name + ": one server per open transaction").doesNotHaveDuplicates();
            for (Connection c : held) {
                c.commit();
            }
            return pids;
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    /**
     * Simple query protocol: no named statements, so nothing ties the client to one server. The
     * assumed server version makes pgjdbc send application_name in the startup packet instead
     * of running {@code SET application_name} as a transaction of its own right after login.
     */
    private static Connection connect(Pooler p) throws SQLException {
        Properties props = new Properties();
        props.setProperty("preferQueryMode", "simple");
        props.setProperty("assumeMinServerVersion", "10");
        return Jdbc.connect("127.0.0.1", p.port, p.db, "postgres", null, props);
    }

    private static long backendPid(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Client backends PostgreSQL has for {@code db}, asked on a direct connection. */
    private static int backends(String db) {
        return Integer.parseInt(PgCluster.shared().query("select count(*) from pg_stat_activity where datname = '"
                + db + "' and backend_type = 'client backend'").get(0).get(0));
    }

    /** Each pid replaced by the index of its first appearance: [7,9,7] and [3,5,3] both give [0,1,0]. */
    private static List<Integer> pattern(List<Long> pids) {
        Map<Long, Integer> first = new HashMap<>();
        List<Integer> out = new ArrayList<>();
        for (long pid : pids) {
            out.add(first.computeIfAbsent(pid, k -> first.size()));
        }
        return out;
    }

    private static void closeAll(List<Pooler> poolers) throws Exception {
        for (Pooler p : poolers) {
            p.process.close();
        }
    }
}
