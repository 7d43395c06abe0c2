package io.sluice.it;

import io.sluice.testkit.PgCluster;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Samples pg_stat_activity on its own direct connection while a load runs, keeping the
 * highest number of client backends seen for one database. Observation only: it never gates
 * the test's progress.
 */
final class BackendWatcher implements AutoCloseable {
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger max = new AtomicInteger();
    private final AtomicInteger samples = new AtomicInteger();
    private final Thread thread;

    BackendWatcher(PgCluster pg, String database) throws Exception {
        Connection c = pg.connect("postgres", PgCluster.SUPERUSER, null);
        thread = new Thread(() -> {
            try (c; Statement st = c.createStatement()) {
                while (running.get()) {
                    try (ResultSet rs = st.executeQuery("select count(*) from pg_stat_activity where datname = '"
                            + database + "' and backend_type = 'client backend'")) {
                        rs.next();
                        max.accumulateAndGet(rs.getInt(1), Math::max);
                        samples.incrementAndGet();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "backend-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    int max() {
        return max.get();
    }

    int samples() {
        return samples.get();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join(10_000);
    }
}
