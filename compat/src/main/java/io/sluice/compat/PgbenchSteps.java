package io.sluice.compat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * pgbench's built-in scripts written as JDBC steps (same statements, same random ranges), so
 * the query mode is pgjdbc's: simple, extended (unnamed statements) or prepared (named). Holds
 * no state; each step uses only its own connection.
 */
final class PgbenchSteps {
    static final int ACCOUNTS_PER_SCALE = 100_000;
    static final int TELLERS_PER_SCALE = 10;

    private PgbenchSteps() {}

    /** pgbench -S: one SELECT of a random account's balance. */
    static Workload.Step selectOnly(Workload.Context ctx) {
        int accounts = ACCOUNTS_PER_SCALE * ctx.pgbenchScale();
        return c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ?")) {
                s.setInt(1, 1 + ThreadLocalRandom.current().nextInt(accounts));
                try (ResultSet rs = s.executeQuery()) {
                    if (!rs.next()) {
                        throw new SQLException("select-only: account row missing", "02000");
                    }
                }
            }
            return true;
        };
    }

    /** pgbench's default TPC-B-like transaction: three updates, a select and an insert. */
    static Workload.Step tpcbLike(Workload.Context ctx) {
        int scale = ctx.pgbenchScale();
        return c -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            int aid = 1 + r.nextInt(ACCOUNTS_PER_SCALE * scale);
            int tid = 1 + r.nextInt(TELLERS_PER_SCALE * scale);
            int bid = 1 + r.nextInt(scale);
            int delta = r.nextInt(-5000, 5001);
            c.setAutoCommit(false);
            try {
                update(c, "UPDATE pgbench_accounts SET abalance = abalance + ? WHERE aid = ?", delta, aid);
                try (PreparedStatement s = c.prepareStatement("SELECT abalance FROM pgbench_accounts WHERE aid = ?")) {
                    s.setInt(1, aid);
                    try (ResultSet rs = s.executeQuery()) {
                        rs.next();
                    }
                }
                update(c, "UPDATE pgbench_tellers SET tbalance = tbalance + ? WHERE tid = ?", delta, tid);
                update(c, "UPDATE pgbench_branches SET bbalance = bbalance + ? WHERE bid = ?", delta, bid);
                try (PreparedStatement s = c.prepareStatement(
                        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP)")) {
                    s.setInt(1, tid);
                    s.setInt(2, bid);
                    s.setInt(3, aid);
                    s.setInt(4, delta);
                    s.executeUpdate();
                }
                c.commit();
            } catch (SQLException e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
            return true;
        };
    }

    private static void update(Connection c, String sql, int delta, int id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setInt(1, delta);
            s.setInt(2, id);
            s.executeUpdate();
        }
    }

    static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the caller reports the original error
        }
    }
}
