package io.sluice.compat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads, from PostgreSQL's side, how many backend connections a target opened during its run.
 * With the server log (a cluster this run started, {@code log_connections = on} and
 * {@code log_line_prefix = '%n [%p] '}) every connect and its startup interval are exact; with
 * only a SQL connection it samples {@code pg_stat_activity} every 20 ms, which sees connects but
 * not startups. {@link #begin}/{@link #end} bracket one run and are called by one thread; the
 * sampler runs on its own thread in between.
 */
abstract class BackendObserver implements AutoCloseable {
    abstract void begin(long epochMillis);

    abstract BackendStats end();

    @Override
    public void close() {}

    static BackendObserver none() {
        return new BackendObserver() {
            @Override
            void begin(long epochMillis) {}

            @Override
            BackendStats end() {
                return BackendStats.unknown();
            }
        };
    }

    static BackendObserver fromLog(Path log) {
        return new LogReader(log);
    }

    static BackendObserver sampling(String url, String user, String password) {
        return new Sampler(url, user, password);
    }

    /** Parses "connection received"/"connection authorized" lines written after {@link #begin}. */
    private static final class LogReader extends BackendObserver {
        private static final Pattern LINE = Pattern.compile(
                "^(\\d+\\.\\d+) \\[(\\d+)\\] LOG:  connection (received|authorized)");
        private final Path log;
        private long offset;
        private long start;

        LogReader(Path log) {
            this.log = log;
        }

        @Override
        void begin(long epochMillis) {
            start = epochMillis;
            offset = log.toFile().length();
        }

        @Override
        BackendStats end() {
            Map<String, Long> received = new HashMap<>();
            List<long[]> startups = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            for (String line : readFrom(offset)) {
                Matcher m = LINE.matcher(line);
                if (!m.find()) {
                    continue;
                }
                long at = Math.round(Double.parseDouble(m.group(1)) * 1000);
                if (m.group(3).equals("received")) {
                    received.put(m.group(2), at);
                } else {
                    Long from = received.remove(m.group(2));
                    long begun = from == null ? at : from;
                    startups.add(new long[] {begun, at});
                    times.add(Math.max(0, begun - start));
                }
            }
            times.sort(null);
            return new BackendStats(startups.size(), peak(startups), times, "log");
        }

        /** The most intervals open at one instant (an end before a start at the same ms). */
        private static int peak(List<long[]> intervals) {
            List<long[]> edges = new ArrayList<>();
            for (long[] iv : intervals) {
                edges.add(new long[] {iv[0], 1});
                edges.add(new long[] {iv[1] + 1, -1});
            }
            edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            int open = 0;
            int max = 0;
            for (long[] e : edges) {
                open += (int) e[1];
                max = Math.max(max, open);
            }
            return max;
        }

        private List<String> readFrom(long from) {
            try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
                if (f.length() <= from) {
                    return List.of();
                }
                byte[] bytes = new byte[(int) (f.length() - from)];
                f.seek(from);
                f.readFully(bytes);
                return new String(bytes, StandardCharsets.UTF_8).lines().toList();
            } catch (IOException e) {
                throw new IllegalStateException("cannot read PostgreSQL log " + log + ": " + e.getMessage(), e);
            }
        }
    }

    /** Polls pg_stat_activity for client backends it has not seen before. */
    private static final class Sampler extends BackendObserver {
        private final String url;
        private final String user;
        private final String password;
        private final Set<Integer> seen = new HashSet<>();
        private final List<Long> times = new ArrayList<>();
        private volatile boolean running;
        private Thread thread;
        private long start;
        private Connection conn;

        Sampler(String url, String user, String password) {
            this.url = url;
            this.user = user;
            this.password = password;
        }

        @Override
        void begin(long epochMillis) {
            start = epochMillis;
            synchronized (times) {
                times.clear();
            }
            try {
                if (conn == null) {
                    Properties p = new Properties();
                    p.setProperty("user", user);
                    if (password != null) {
                        p.setProperty("password", password);
                    }
                    p.setProperty("ApplicationName", "sluice-compat observer");
                    conn = DriverManager.getConnection(url, p);
                }
                sample(false);
            } catch (SQLException e) {
                System.err.println("sluice-compat: cannot read pg_stat_activity (" + e.getMessage()
                        + "); backend connects will show as n/a");
                return;
            }
            running = true;
            thread = new Thread(this::loop, "sluice-compat-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            while (running) {
                try {
                    sample(true);
                    Thread.sleep(20);
                } catch (SQLException e) {
                    running = false;
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void sample(boolean record) throws SQLException {
            try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT pid, (extract(epoch FROM backend_start) * 1000)::bigint FROM pg_stat_activity"
                            + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
                while (rs.next()) {
                    if (seen.add(rs.getInt(1)) && record && rs.getLong(2) >= start) {
                        synchronized (times) {
                            times.add(rs.getLong(2) - start);
                        }
                    }
                }
            }
        }

        @Override
        BackendStats end() {
            if (thread == null) {
                return BackendStats.unknown();
            }
            running = false;
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
            synchronized (times) {
                List<Long> copy = new ArrayList<>(times);
                copy.sort(null);
                return new BackendStats(copy.size(), -1, copy, "pg_stat_activity");
            }
        }

        @Override
        public void close() {
            try {
                if (conn != null) {
                    conn.close();
                }
            } catch (SQLException ignored) {
                // closing the observer's own connection at exit
            }
        }
    }
}
