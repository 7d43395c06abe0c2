package io.sluice.compat.suite;

import io.sluice.testkit.Jdbc;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workloads herd, fifo (many clients, small pool, short transactions) and long-short, judged by
 * what each client got back (every answer right, no error): timing differs by design (the
 * pressure features), so it is not compared here; sluice-compat measures it.
 */
class PoolPressureCompatIT {
    private static final int HERD = 40;
    private static final int FIFO_CLIENTS = 60;
    private static final int FIFO_STEPS = 20;

    /** Runs the clients in parallel, bounded; returns "outcome -> count". */
    private static List<String> clients(int port, String db, int n, Callable<String>[] perClient) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (Callable<String> c : perClient) {
                futures.add(pool.submit(c));
            }
            Map<String, Integer> outcomes = new TreeMap<>();
            for (Future<String> f : futures) {
                outcomes.merge(f.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
            return outcomes.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).toList();
        } finally {
            pool.shutdownNow();
        }
    }

    private static Connection jdbc(int port, String db) throws SQLException {
        // unnamed statements only: named ones do not survive transaction pooling in PgBouncer 1.18
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "0");
        return Jdbc.connect("127.0.0.1", port, db, CompatTargets.USER, CompatTargets.PASSWORD, p);
    }

    private static String scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @SuppressWarnings("unchecked")
    private static Callable<String>[] array(List<Callable<String>> list) {
        return list.toArray(new Callable[0]);
    }

    @Test
    void herdOnColdSmallPoolEveryClientAnswered() throws Exception {
        List<String> seen = SideBySide.same("herd on compat_small", p -> {
            List<Callable<String>> cs = new ArrayList<>();
            for (int i = 0; i < HERD; i++) {
                int id = i;
                cs.add(() -> {
                    try (Connection c = jdbc(p, "compat_small")) {
                        return scalar(c, "SELECT " + id + " % 4").equals(String.valueOf(id % 4)) ? "ok" : "wrong";
                    } catch (SQLException e) {
                        return "error " + e.getSQLState();
                    }
                });
            }
            return clients(p, "compat_small", HERD, array(cs));
        });
        assertThat(seen).containsExactly("ok x" + HERD);
    }

    @Test
    void fifoManyClientsShortTransactionsAllComplete() throws Exception {
        List<String> seen = SideBySide.same("fifo on compat_small", p -> {
            List<Callable<String>> cs = new ArrayList<>();
            for (int i = 0; i < FIFO_CLIENTS; i++) {
                cs.add(() -> {
                    try (Connection c = jdbc(p, "compat_small")) {
                        int done = 0;
                        for (int s = 0; s < FIFO_STEPS; s++) {
                            c.setAutoCommit(false);
                            done += Integer.parseInt(scalar(c, "SELECT 1"));
                            c.commit();
                        }
                        return "steps " + done;
                    } catch (SQLException e) {
                        return "error " + e.getSQLState();
                    }
                });
            }
            return clients(p, "compat_small", FIFO_CLIENTS, array(cs));
        });
        assertThat(seen).containsExactly("steps " + FIFO_STEPS + " x" + FIFO_CLIENTS);
    }

    @Test
    void longTransactionsDoNotBreakShortOnes() throws Exception {
        List<String> seen = SideBySide.same("long-short on compat_small", p -> {
            List<Callable<String>> cs = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                boolean isLong = i < 2; // 2 of the 3 servers held by long transactions
                cs.add(() -> {
                    try (Connection c = jdbc(p, "compat_small")) {
                        c.setAutoCommit(false);
                        String r = scalar(c, isLong ? "SELECT pg_sleep(0.5)::text || 'long'" : "SELECT 'short'");
                        c.commit();
                        return r;
                    } catch (SQLException e) {
                        return "error " + e.getSQLState();
                    }
                });
            }
            return clients(p, "compat_small", 12, array(cs));
        });
        assertThat(seen).containsExactly("long x2", "short x10");
    }

    @Test
    void transactionPoolSharesServersAcrossClients() throws Exception {
        List<String> seen = SideBySide.same("transaction pooling reuses servers", p -> {
            List<String> pids = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                try (Connection c = jdbc(p, "compat_small")) {
                    pids.add(scalar(c, "SELECT pg_backend_pid()"));
                }
            }
            return List.of("distinct backends <= " + CompatTargets.SMALL_POOL + ": "
                    + (pids.stream().distinct().count() <= CompatTargets.SMALL_POOL));
        });
        assertThat(seen).containsExactly("distinct backends <= " + CompatTargets.SMALL_POOL + ": true");
    }
}
