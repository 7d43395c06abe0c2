package io.sluice.compat;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one workload against one address: one thread and one pgjdbc connection per client, all
 * released together, each repeating its step until the deadline. Latencies go to a shared
 * concurrent HdrHistogram in microseconds; failures are counted by SQLSTATE. Every run is
 * bounded: the deadline, a socket timeout on every connection, and a join timeout on every
 * thread. {@link #run} is called by one thread at a time.
 */
final class LoadRunner {
    private static final long MAX_LATENCY_US = TimeUnit.MINUTES.toMicros(10);

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final long durationMillis;

    LoadRunner(String host, int port, String user, String password, long durationMillis) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.durationMillis = durationMillis;
    }

    TargetResult run(String target, Workload w, String database, int clients, Workload.Context ctx) throws InterruptedException {
        Histogram latency = new ConcurrentHistogram(MAX_LATENCY_US, 3);
        Map<String, Long> errors = new ConcurrentHashMap<>();
        AtomicLong steps = new AtomicLong();
        CountDownLatch connected = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        long[] window = new long[2];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Workload.Step step = w.steps().create(i, clients, ctx);
            Thread t = new Thread(() -> client(w, database, step, connected, go, window, latency, errors, steps),
                    "compat-" + target + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        // A herd connects inside the measured window; other workloads connect first.
        if (!w.connectTimed() && !connected.await(60, TimeUnit.SECONDS)) {
            errors.merge("connect-timeout", connected.getCount(), Long::sum);
        }
        window[0] = System.nanoTime();
        window[1] = window[0] + TimeUnit.MILLISECONDS.toNanos(durationMillis);
        go.countDown();
        long joinBy = window[1] + TimeUnit.SECONDS.toNanos(40);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            if (t.isAlive()) {
                errors.merge("client-hung", 1L, Long::sum);
                t.interrupt();
            }
        }
        double seconds = (Math.min(System.nanoTime(), joinBy) - window[0]) / 1e9;
        return new TargetResult(target, clients, steps.get(), Math.max(seconds, durationMillis / 1000.0),
                latency, new TreeMap<>(errors), BackendStats.unknown());
    }

    private void client(Workload w, String database, Workload.Step step, CountDownLatch connected, CountDownLatch go,
                        long[] window, Histogram latency, Map<String, Long> errors, AtomicLong steps) {
        Connection c = null;
        boolean counted = false;
        try {
            if (!w.connectTimed()) {
                c = connectCounting(w, database, errors);
                connected.countDown();
                counted = true;
            }
            if (!go.await(120, TimeUnit.SECONDS)) {
                return;
            }
            long deadline = window[1];
            long connectStarted = System.nanoTime();
            while (System.nanoTime() < deadline) {
                long t0 = System.nanoTime();
                if (c == null || c.isClosed()) {
                    c = connectCounting(w, database, errors);
                    if (c == null) {
                        pauseAfterFailure();
                        continue;
                    }
                    if (w.connectTimed()) {
                        t0 = connectStarted; // the herd's first step counts its connect
                    }
                }
                try {
                    boolean measured = step.run(c);
                    if (measured) {
                        latency.recordValue(Math.min(MAX_LATENCY_US, (System.nanoTime() - t0) / 1000));
                        steps.incrementAndGet();
                    }
                } catch (SQLException e) {
                    errors.merge(state(e), 1L, Long::sum);
                    if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                        closeQuietly(c);
                        c = null;
                    }
                }
                connectStarted = System.nanoTime();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            errors.merge(state(e), 1L, Long::sum);
        } finally {
            if (!counted) {
                connected.countDown(); // a thread that failed early must not hold the start back
            }
            closeQuietly(c);
        }
    }

    private Connection connectCounting(Workload w, String database, Map<String, Long> errors) {
        Properties p = new Properties();
        p.putAll(w.jdbc());
        p.setProperty("user", user);
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("ApplicationName", "sluice-compat");
        p.setProperty("connectTimeout", "30");
        p.setProperty("socketTimeout", Long.toString(TimeUnit.MILLISECONDS.toSeconds(durationMillis) + 30));
        try {
            return DriverManager.getConnection("jdbc:postgresql://" + hostForUrl() + ":" + port + "/" + database, p);
        } catch (SQLException e) {
            errors.merge(state(e), 1L, Long::sum);
            return null;
        }
    }

    private String hostForUrl() {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    // Why a pause: a target that refuses every connect would otherwise be hammered in a hot loop.
    private static void pauseAfterFailure() throws InterruptedException {
        Thread.sleep(10);
    }

    private static String state(SQLException e) {
        return e.getSQLState() == null ? "unknown" : e.getSQLState();
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the connection is going away either way
            }
        }
    }
}
