package io.sluice.compat;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.copy.CopyManager;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The built-in workloads, by name, plus user workloads made from a SQL script. Immutable.
 */
public final class Workloads {
    /** Rows a copy step moves each way. */
    static final int COPY_ROWS = 1000;

    private static final Map<String, Workload> BUILT_IN = new LinkedHashMap<>();

    static {
        for (String mode : List.of("simple", "extended", "prepared")) {
            String suffix = mode.equals("extended") ? "" : "-" + mode;
            add(new Workload("select-only" + suffix, 1, "pgbench -S -M " + mode + ": one SELECT by primary key",
                    16, Workload.Mode.TRANSACTION_POOL, false, jdbc(mode), (i, n, ctx) -> PgbenchSteps.selectOnly(ctx)));
            add(new Workload("tpcb-like" + suffix, 1, "pgbench default -M " + mode + ": 3 UPDATEs, SELECT, INSERT in a transaction",
                    16, Workload.Mode.TRANSACTION_POOL, false, jdbc(mode), (i, n, ctx) -> PgbenchSteps.tpcbLike(ctx)));
        }
        add(new Workload("herd", 1, "thundering herd: 200 clients connect at once to a cold pool, then select-only;"
                + " the first step's latency includes the connect", 200, Workload.Mode.TRANSACTION_POOL, true,
                jdbc("extended"), (i, n, ctx) -> PgbenchSteps.selectOnly(ctx)));
        add(new Workload("fifo-500", 1, "500 clients on the small pool, short transactions (BEGIN; SELECT; COMMIT)",
                500, Workload.Mode.TRANSACTION_POOL, false, jdbc("extended"), (i, n, ctx) -> Workloads::shortTransaction));
        add(new Workload("long-short", 1, "1 in 10 clients hold 200 ms transactions; latency of the short ones",
                100, Workload.Mode.TRANSACTION_POOL, false, jdbc("extended"),
                (i, n, ctx) -> i % 10 == 0 ? Workloads::longTransaction : Workloads::shortTransaction));
        add(new Workload("copy", 1, "COPY " + COPY_ROWS + " rows out (TO STDOUT) and " + COPY_ROWS + " rows in (FROM STDIN)",
                8, Workload.Mode.TRANSACTION_POOL, false, jdbc("extended"), (i, n, ctx) -> Workloads::copyBothWays));
        add(new Workload("listen-notify", 1, "session pool: NOTIFY on the client's own channel, wait for delivery",
                8, Workload.Mode.SESSION_POOL, false, jdbc("extended"), (i, n, ctx) -> notifyRoundTrip(i)));
        add(new Workload("cancel", 1, "start pg_sleep(5), cancel it after 20 ms, expect 57014", 8,
                Workload.Mode.TRANSACTION_POOL, false, jdbc("extended"), (i, n, ctx) -> Workloads::cancelledSleep));
        add(new Workload("errors-in-tx", 1, "BEGIN; SELECT 1/0 (22012); ROLLBACK; the pool must hand back a clean server",
                16, Workload.Mode.TRANSACTION_POOL, false, jdbc("extended"), (i, n, ctx) -> Workloads::errorInTransaction));
        add(new Workload("admin", 1, "admin console: SHOW POOLS, SHOW STATS, SHOW CLIENTS", 4,
                Workload.Mode.ADMIN, false, jdbc("simple"), (i, n, ctx) -> Workloads::adminShows));
    }

    private Workloads() {}

    private static void add(Workload w) {
        BUILT_IN.put(w.name(), w);
    }

    public static List<Workload> builtIn() {
        return new ArrayList<>(BUILT_IN.values());
    }

    /** A built-in by name; throws naming the known ones. */
    public static Workload named(String name) {
        Workload w = BUILT_IN.get(name);
        if (w == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; known: " + String.join(", ", BUILT_IN.keySet())
                    + " (or --script FILE for your own)");
        }
        return w;
    }

    /**
     * A user workload: every client runs the whole script as one simple-protocol query string
     * per step (several statements allowed, as psql -c would send them).
     */
    public static Workload script(String name, String sql, int clients) {
        return new Workload(name, 1, "user script, " + clients + " clients", clients, Workload.Mode.TRANSACTION_POOL,
                false, jdbc("simple"), (i, n, ctx) -> c -> {
                    try (Statement s = c.createStatement()) {
                        boolean results = s.execute(sql);
                        while (results || s.getUpdateCount() != -1) {
                            if (results) {
                                try (ResultSet rs = s.getResultSet()) {
                                    while (rs.next()) {
                                        // drain: the client reads every row, as an application would
                                    }
                                }
                            }
                            results = s.getMoreResults();
                        }
                    }
                    return true;
                });
    }

    /** pgjdbc properties for pgbench's -M modes. */
    static Properties jdbc(String mode) {
        Properties p = new Properties();
        switch (mode) {
            case "simple" -> p.setProperty("preferQueryMode", "simple");
            case "extended" -> p.setProperty("prepareThreshold", "0");
            case "prepared" -> p.setProperty("prepareThreshold", "1");
            default -> throw new IllegalArgumentException("query mode " + mode);
        }
        return p;
    }

    private static boolean shortTransaction(Connection c) throws SQLException {
        transaction(c, "SELECT 1");
        return true;
    }

    private static boolean longTransaction(Connection c) throws SQLException {
        transaction(c, "SELECT pg_sleep(0.2)");
        return false;
    }

    /** One explicit transaction around {@code sql}; rolled back if it fails. */
    private static void transaction(Connection c, String sql) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            c.commit();
        } catch (SQLException e) {
            PgbenchSteps.rollbackQuietly(c);
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static boolean copyBothWays(Connection c) throws SQLException {
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        try {
            long out = copy.copyOut("COPY (SELECT g, 'row ' || g FROM generate_series(1, " + COPY_ROWS + ") g) TO STDOUT",
                    OutputStream.nullOutputStream());
            StringBuilder rows = new StringBuilder();
            for (int r = 1; r <= COPY_ROWS; r++) {
                rows.append(r).append("\trow ").append(r).append('\n');
            }
            long in = copy.copyIn("COPY sluice_compat_copy (id, note) FROM STDIN",
                    new ByteArrayInputStream(rows.toString().getBytes(StandardCharsets.UTF_8)));
            if (out != COPY_ROWS || in != COPY_ROWS) {
                throw new SQLException("copy moved " + out + " out and " + in + " in, expected " + COPY_ROWS, "XX000");
            }
        } catch (IOException e) {
            throw new SQLException("copy stream failed: " + e.getMessage(), "08006", e);
        }
        return true;
    }

    private static Workload.Step notifyRoundTrip(int client) {
        String channel = "sluice_compat_" + client;
        boolean[] listening = {false};
        return c -> {
            try (Statement s = c.createStatement()) {
                if (!listening[0]) {
                    s.execute("LISTEN " + channel);
                    listening[0] = true;
                }
                s.execute("NOTIFY " + channel + ", 'ping'");
            }
            PGNotification[] got = c.unwrap(PGConnection.class).getNotifications(10_000);
            if (got == null || got.length == 0 || !channel.equals(got[0].getName())) {
                throw new SQLException("notification on " + channel + " not delivered within 10 s", "XX001");
            }
            return true;
        };
    }

    private static boolean cancelledSleep(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            Thread canceller = new Thread(() -> cancelAfter(s, 20));
            canceller.start();
            try {
                s.execute("SELECT pg_sleep(5)");
                throw new SQLException("pg_sleep(5) was not cancelled", "XX002");
            } catch (SQLException e) {
                if (!"57014".equals(e.getSQLState())) {
                    throw e;
                }
            } finally {
                joinQuietly(canceller);
            }
        }
        return true;
    }

    // Why a fixed 20 ms: the cancel must arrive while the sleep runs on the server.
    private static void cancelAfter(Statement s, long millis) {
        try {
            Thread.sleep(millis);
            s.cancel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            // the statement finished or the connection closed: the step reports what it saw
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean errorInTransaction(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            try {
                s.execute("SELECT 1/0");
                throw new SQLException("1/0 did not fail", "XX003");
            } catch (SQLException e) {
                if (!"22012".equals(e.getSQLState())) {
                    throw e;
                }
            }
            c.rollback();
        } finally {
            c.setAutoCommit(true);
        }
        return true;
    }

    private static boolean adminShows(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String cmd : List.of("SHOW POOLS", "SHOW STATS", "SHOW CLIENTS")) {
                try (ResultSet rs = s.executeQuery(cmd)) {
                    while (rs.next()) {
                        // drain
                    }
                }
            }
        }
        return true;
    }
}
