package io.sluice.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Debian's PgBouncer ({@code /usr/sbin/pgbouncer}, or {@code -Dsluice.pgbouncer=<path>}) run in
 * the foreground from a temp dir, as the OS user {@code postgres} when this JVM is root
 * (PgBouncer refuses root). The given ini text is used as is, except that the fixture forces
 * {@code listen_addr = 127.0.0.1} and {@code listen_port} (a free port) at the end of the
 * {@code [pgbouncer]} section, and defaults {@code unix_socket_dir} to the temp dir and, when a
 * userlist is given, {@code auth_file} to it (the ini may override those two). Thread-safe.
 */
public final class PgBouncerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final int port;
    private final Path dir;
    private final ServerProcess process;

    private PgBouncerProcess(int port, Path dir, ServerProcess process) {
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    /** The PgBouncer binary this fixture runs. */
    public static Path binary() {
        return Path.of(System.getProperty("sluice.pgbouncer", "/usr/sbin/pgbouncer"));
    }

    public static boolean available() {
        return Files.isExecutable(binary());
    }

    /** The version {@code pgbouncer --version} reports, e.g. {@code 1.18.0}. */
    public static String version() {
        if (!available()) {
            throw new IllegalStateException("not available: PgBouncer binary " + binary());
        }
        String out = ProcessRunner.of(binary().toString(), "--version")
                .timeout(Duration.ofSeconds(10)).run().requireSuccess().stdout();
        String first = out.lines().findFirst().orElse("").strip();
        return first.startsWith("PgBouncer ") ? first.substring("PgBouncer ".length()).strip() : first;
    }

    /**
     * Starts PgBouncer with the ini text and (may be null) the auth file text; returns once it
     * accepts TCP connections, or throws with its output after 20 s.
     */
    public static PgBouncerProcess start(String ini, String userlist) {
        return start(ini, userlist, List.of());
    }

    /** {@link #start(String, String)} with {@code launcher} before the command (e.g. a shell that sets the environment). */
    public static PgBouncerProcess start(String ini, String userlist, List<String> launcher) {
        if (!available()) {
            throw new IllegalStateException("not available: PgBouncer binary " + binary());
        }
        int port = FreePorts.next();
        Path dir = TempDir.create("sluice-pgb-");
        Path iniFile = IniOverrides.writeFixtureConfig(dir, ini, userlist, port);
        List<String> command = new java.util.ArrayList<>(launcher);
        command.addAll(List.of(binary().toString(), iniFile.toString()));
        List<String> cmd = OsUser.asServiceUser(command);
        ServerProcess p = new ServerProcess("pgbouncer", cmd, dir, Map.of("HOME", dir.toString()));
        p.awaitPort(port, START_TIMEOUT);
        return new PgBouncerProcess(port, dir, p);
    }

    public int port() {
        return port;
    }

    public String host() {
        return PgCluster.HOST;
    }

    /** The temp dir: holds pgbouncer.ini, userlist.txt, the output and (by default) the unix socket. */
    public Path dir() {
        return dir;
    }

    public long pid() {
        return process.pid();
    }

    public String jdbcUrl(String db) {
        return Jdbc.url(PgCluster.HOST, port, db);
    }

    public Connection connect(String db, String user, String password) throws SQLException {
        return Jdbc.connect(PgCluster.HOST, port, db, user, password);
    }

    /** Sends a signal by name (HUP reloads, INT is a safe shutdown, TERM an immediate one). */
    public void signal(String signal) {
        process.signal(signal);
    }

    public boolean waitFor(Duration timeout) {
        return process.waitFor(timeout);
    }

    public int exitCode() {
        return process.exitCode();
    }

    /** PgBouncer's log: it logs to stderr in the foreground, which the fixture captures. */
    public String logText() {
        return process.output();
    }

    /** SIGTERM, SIGKILL after 10 s, then the temp dir is removed ({@link #logText()} still works). */
    public void stop() {
        process.stop();
    }

    @Override
    public void close() {
        stop();
    }
}
