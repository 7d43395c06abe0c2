package io.sluice.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real PostgreSQL cluster in a temp dir under /tmp, listening on 127.0.0.1:{@link #port()}
 * and on a unix socket in {@link #socketDir()}. Runs as the OS user {@code postgres} when this
 * JVM is root (PostgreSQL refuses root), otherwise as the current user. The superuser is
 * {@value #SUPERUSER}; it is trusted over the socket and over TCP, so the fixture's own
 * {@link #exec}/{@link #query} never need a password, while other roles must authenticate
 * over TCP with the builder's {@code hostAuth} method (md5 by default: which also accepts
 * SCRAM-stored passwords, so both kinds of role can log in and a wrong password fails).
 *
 * <p>Start one with {@link #builder()}...{@link Builder#start()} and close it, or use the one
 * {@link #shared()} cluster per JVM (never close that one; a shutdown hook stops it). Stopping
 * is {@code pg_ctl -m immediate stop} and removes the temp dir. Thread-safe.
 */
public final class PgCluster implements AutoCloseable {
    public static final String SUPERUSER = "postgres";
    public static final String HOST = "127.0.0.1";

    private static final int START_ATTEMPTS = 3;
    private static final AtomicLong NAMES = new AtomicLong();
    private static PgCluster shared;
    private static RuntimeException sharedFailure;

    private final Path baseDir;
    private final Path dataDir;
    private final Path socketDir;
    private final Path logFile;
    private final int port;
    private final boolean isShared;
    /** Where it listens (127.0.0.1, or its namespace's address) and the namespace it runs in, if any. */
    private final String host;
    private final NetNamespace netns;
    private final long reaperId;
    private boolean stopped;

    private PgCluster(Path baseDir, int port, boolean isShared, NetNamespace netns) {
        this.baseDir = baseDir;
        this.dataDir = baseDir.resolve("data");
        this.socketDir = baseDir.resolve("sock");
        this.logFile = baseDir.resolve("postgres.log");
        this.port = port;
        this.isShared = isShared;
        this.netns = netns;
        this.host = netns == null ? HOST : netns.innerAddress();
        this.reaperId = Reaper.register(this::stopQuietly);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The cluster shared by all tests of this JVM, started on first use with
     * {@code log_connections = on} and {@code max_connections = 400}. Tests sharing it must use
     * their own roles and databases ({@link #uniqueName}). A failed start is remembered and
     * rethrown rather than retried by every test.
     */
    public static synchronized PgCluster shared() {
        if (sharedFailure != null) {
            throw sharedFailure;
        }
        if (shared == null) {
            try {
                shared = builder().config("log_connections = on", "max_connections = 400").start(true);
            } catch (RuntimeException e) {
                sharedFailure = e;
                throw e;
            }
        }
        return shared;
    }

    /** A name no other call in this JVM returned: {@code prefix_<n>}, lower case, safe unquoted. */
    public static String uniqueName(String prefix) {
        return prefix.toLowerCase() + "_" + NAMES.incrementAndGet() + "_" + ProcessHandle.current().pid();
    }

    public int port() {
        return port;
    }

    /** 127.0.0.1, or for a cluster in a {@link NetNamespace} the namespace's address. */
    public String host() {
        return host;
    }

    public Path socketDir() {
        return socketDir;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isShared() {
        return isShared;
    }

    public String jdbcUrl(String db) {
        return Jdbc.url(host, port, db);
    }

    /** A new pgjdbc connection over TCP; {@code password} may be null. */
    public Connection connect(String db, String user, String password) throws SQLException {
        return Jdbc.connect(host, port, db, user, password);
    }

    /** Runs SQL as the superuser in database {@code postgres}. */
    public void exec(String sql) {
        exec(SUPERUSER, sql);
    }

    /** Runs SQL (one or more statements, no results) as the superuser in {@code db}. */
    public void exec(String db, String sql) {
        try (Connection c = superuser(db); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("superuser SQL failed [" + e.getSQLState() + "]: " + sql, e);
        }
    }

    /** Runs a query as the superuser in database {@code postgres}; values as text, SQL NULL as null. */
    public List<List<String>> query(String sql) {
        return query(SUPERUSER, sql);
    }

    public List<List<String>> query(String db, String sql) {
        try (Connection c = superuser(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int cols = rs.getMetaData().getColumnCount();
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>(cols);
                for (int i = 1; i <= cols; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("superuser query failed [" + e.getSQLState() + "]: " + sql, e);
        }
    }

    /** Creates a LOGIN role whose password is stored as {@code encryption} says (none: no password). */
    public void createUser(String name, String password, Encryption encryption) {
        if (encryption == Encryption.NONE) {
            exec("CREATE ROLE " + ident(name) + " LOGIN");
            return;
        }
        exec("SET password_encryption = " + literal(encryption.setting()) + "; CREATE ROLE " + ident(name)
                + " LOGIN PASSWORD " + literal(password));
    }

    public void createDatabase(String name, String owner) {
        exec("CREATE DATABASE " + ident(name) + " OWNER " + ident(owner));
    }

    /** The server log so far (connections are logged on the shared cluster). */
    public String logText() {
        return TempDir.read(logFile);
    }

    /** Stops the cluster at once ({@code -m immediate}) and removes its temp dir. Idempotent. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        Reaper.unregister(reaperId);
        stopNow();
    }

    /**
     * Stops the server ({@code pg_ctl -m fast stop}) but keeps its data dir, so {@link #startAgain()}
     * brings the same cluster back on the same port: a PostgreSQL restart as clients see it.
     */
    public synchronized void stopKeepingData() {
        if (isShared) {
            throw new IllegalStateException("the shared cluster cannot be stopped");
        }
        pgCtl(Duration.ofSeconds(45), "-m", "fast", "-w", "-t", "30", "stop").requireSuccess();
    }

    /** Starts a cluster stopped by {@link #stopKeepingData()}; returns once it accepts connections. */
    public synchronized void startAgain() {
        pgCtl(Duration.ofSeconds(75), "-l", logFile.toString(), "-w", "-t", "60", "start").requireSuccess();
    }

    private ProcessResult pgCtl(Duration timeout, String... args) {
        List<String> cmd = new ArrayList<>(List.of(PgBinaries.serverBin().resolve("pg_ctl").toString(),
                "-D", dataDir.toString()));
        cmd.addAll(List.of(args));
        return ProcessRunner.of(inNamespace(OsUser.asServiceUser(cmd))).directory(baseDir).env("HOME", baseDir.toString())
                .env("PGDATA", null).timeout(timeout).run();
    }

    /** Stops the cluster unless it is the {@link #shared()} one, which lives until the JVM exits. */
    @Override
    public void close() {
        if (!isShared) {
            stop();
        }
    }

    private void stopQuietly() {
        try {
            stopNow();
        } catch (RuntimeException e) {
            System.err.println("sluice-testkit: stopping cluster " + baseDir + " failed: " + e);
        }
    }

    private void stopNow() {
        if (Files.exists(dataDir.resolve("postmaster.pid"))) {
            ProcessResult r = ProcessRunner.of(OsUser.asServiceUser(List.of(
                            PgBinaries.serverBin().resolve("pg_ctl").toString(), "-D", dataDir.toString(),
                            "-m", "immediate", "-w", "-t", "30", "stop")))
                    .directory(baseDir).timeout(Duration.ofSeconds(45)).run();
            if (!r.ok()) {
                killPostmaster();
            }
        }
        TempDir.deleteRecursively(baseDir);
    }

    // Fallback when pg_ctl cannot stop it: SIGKILL the postmaster; its children notice and exit.
    private void killPostmaster() {
        String pidFile = TempDir.read(dataDir.resolve("postmaster.pid"));
        String first = pidFile.lines().findFirst().orElse("").strip();
        if (first.matches("\\d+")) {
            ProcessHandle.of(Long.parseLong(first)).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private Connection superuser(String db) throws SQLException {
        Properties p = new Properties();
        p.setProperty("socketTimeout", "120");
        // TLS when the server offers it (a cluster whose hba has only hostssl lines), plain otherwise
        p.setProperty("sslmode", "prefer");
        return Jdbc.connect(host, port, db, SUPERUSER, null, p);
    }

    /** The command as run in the cluster's namespace, when it has one. */
    List<String> inNamespace(List<String> command) {
        return netns == null ? command : netns.wrap(command);
    }

    static String ident(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** Options for a new cluster. Not thread-safe. */
    public static final class Builder {
        private final List<String> config = new ArrayList<>();
        private String hostAuth = "md5";
        private String hba;
        private final java.util.Map<String, Path> dataFiles = new java.util.LinkedHashMap<>();
        private Duration startTimeout = Duration.ofSeconds(60);
        private NetNamespace netns;
        private final List<String> alsoListen = new ArrayList<>();

        private Builder() {}

        /**
         * Listens on {@code address} too (same port), e.g. 127.0.0.2: one server reached under
         * two host names, which is how a host list is tested against a pooler that has one port
         * for all hosts (PgBouncer before 1.24). {@code inet_server_addr()} tells them apart.
         */
        public Builder alsoListenOn(String address) {
            alsoListen.add(address);
            return this;
        }

        /** Extra postgresql.conf lines, e.g. {@code "log_connections = on"}; later lines win. */
        public Builder config(String... lines) {
            config.addAll(List.of(lines));
            return this;
        }

        /** The server's default {@code password_encryption}. */
        public Builder passwordEncryption(Encryption encryption) {
            if (encryption == Encryption.NONE) {
                throw new IllegalArgumentException("password_encryption must be MD5 or SCRAM");
            }
            return config("password_encryption = '" + encryption.setting() + "'");
        }

        /** hba method for TCP logins of roles other than the superuser: md5 (default), scram-sha-256, password, trust. */
        public Builder hostAuth(String method) {
            this.hostAuth = method;
            return this;
        }

        /** Replaces the whole pg_hba.conf. Keep the superuser trusted over TCP 127.0.0.1, or exec/query stop working. */
        public Builder hba(String text) {
            this.hba = text;
            return this;
        }

        /**
         * Copies {@code source} into the data directory as {@code name} before the start, owned by
         * the server's OS user with mode 0600 (what PostgreSQL demands of {@code ssl_key_file}).
         * The config can then name it relatively, e.g. {@code ssl_cert_file = 'server.crt'}.
         */
        public Builder dataFile(String name, Path source) {
            dataFiles.put(name, source);
            return this;
        }

        /** Bound for {@code pg_ctl -w start} (default 60 s). */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /**
         * Runs the server inside {@code ns}, listening on its {@link NetNamespace#innerAddress()}
         * only; the default hba trusts the same roles from the namespace's host end as from
         * 127.0.0.1. The unix socket stays reachable from here (it is a file).
         */
        public Builder netns(NetNamespace ns) {
            this.netns = ns;
            return this;
        }

        public PgCluster start() {
            return start(false);
        }

        /**
         * A streaming replica of {@code primary}, made as an operator makes one: {@code pg_basebackup
         * -R -X stream} over TCP as the superuser (the default hba lets it replicate), then started
         * on a port of its own. Only {@link #config} lines apply (appended after the copied ones).
         */
        public PgCluster startStandbyOf(PgCluster primary) {
            PgCluster standby = new PgCluster(TempDir.create("sluice-pg-"), FreePorts.next(), false, null);
            try {
                PgClusterSetup.basebackupAndStart(standby, primary, config, startTimeout);
                return standby;
            } catch (RuntimeException e) {
                standby.stop();
                throw e;
            }
        }

        private PgCluster start(boolean isShared) {
            RuntimeException last = null;
            for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
                PgCluster cluster = new PgCluster(TempDir.create("sluice-pg-"), FreePorts.next(), isShared, netns);
                try {
                    PgClusterSetup.initAndStart(cluster, hba != null ? hba : defaultHba(), config, hostAuth, dataFiles,
                            startTimeout, alsoListen);
                    return cluster;
                } catch (RuntimeException e) {
                    String log = cluster.logText();
                    cluster.stop();
                    last = e;
                    // Someone else took the port between probing and binding: try another one.
                    if (!log.contains("could not bind") && !log.contains("Address already in use")) {
                        throw e;
                    }
                }
            }
            throw last;
        }

        private String defaultHba() {
            String hba = "# pg_hba.conf written by the sluice testkit\n"
                    + "local all all trust\n"
                    + "local replication " + SUPERUSER + " trust\n"
                    + "host replication " + SUPERUSER + " 127.0.0.1/32 trust\n"
                    + "host all " + SUPERUSER + " 127.0.0.1/32 trust\n"
                    + "host all all 127.0.0.1/32 " + hostAuth + "\n";
            for (String a : alsoListen) {
                hba += "host all " + SUPERUSER + " " + a + "/32 trust\nhost all all " + a + "/32 " + hostAuth + "\n";
            }
            if (netns != null) {
                hba += "host all " + SUPERUSER + " " + netns.hostAddress() + "/32 trust\n"
                        + "host all all " + netns.hostAddress() + "/32 " + hostAuth + "\n";
            }
            return hba;
        }
    }

    Path baseDir() {
        return baseDir;
    }
}
