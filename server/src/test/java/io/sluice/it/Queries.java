package io.sluice.it;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** What a client saw of one statement, as text both poolers' answers can be compared by. */
final class Queries {
    private Queries() {
    }

    /** The first column of the first row ("" without rows), or "ERROR: " and the message. */
    static String run(Connection c, String sql) {
        try (Statement st = c.createStatement()) {
            if (!st.execute(sql)) {
                return "";
            }
            try (ResultSet rs = st.getResultSet()) {
                return rs.next() ? String.valueOf(rs.getString(1)) : "";
            }
        } catch (SQLException e) {
            return "ERROR: " + e.getMessage();
        }
    }

    /** {@link #run} on its own thread, for a statement that waits. */
    static CompletableFuture<String> start(Connection c, String sql) {
        return CompletableFuture.supplyAsync(() -> run(c, sql));
    }

    /** The outcome of {@code f}, which must be known within {@code seconds}. */
    static String await(CompletableFuture<String> f, long seconds) {
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no answer within " + seconds + " s");
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError(e);
        }
    }

    static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException ignored) {
            // the pooler may have closed it first
        }
    }
}
