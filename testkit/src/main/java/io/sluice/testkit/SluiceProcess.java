package io.sluice.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Sluice server jar run as a child JVM: {@code java [jvmArgs] -jar <jar> <dir>/pgbouncer.ini},
 * with its temp dir as the working dir and stdout+stderr captured to a file there.
 *
 * <p>Configure with the fluent setters, then {@link #start()} (returns once the TCP port
 * accepts connections) or {@link #launch()} (returns at once, e.g. to watch a bad config fail).
 * Like {@link PgBouncerProcess}, the ini text is used as is except that {@code listen_addr} and
 * {@code listen_port} are forced and {@code unix_socket_dir}/{@code auth_file} defaulted to the
 * temp dir. Thread-safe once started; not while being configured.
 */
public final class SluiceProcess implements AutoCloseable {
    private final Path jar;
    private int port = FreePorts.next();
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final List<String> launcher = new ArrayList<>();
    private Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    private final Map<String, String> env = new LinkedHashMap<>();
    private String ini = "[databases]\n[pgbouncer]\n";
    private String userlist;
    private Duration startTimeout = Duration.ofSeconds(30);
    private boolean asServiceUser;
    private Path dir;
    private ServerProcess process;

    /** @param jar the server's runnable jar (the server module passes {@code target/sluice.jar}) */
    public SluiceProcess(Path jar) {
        this.jar = jar.toAbsolutePath();
    }

    /** The pgbouncer.ini text (default: empty {@code [databases]} and {@code [pgbouncer]}). */
    public SluiceProcess ini(String text) {
        this.ini = text;
        return this;
    }

    /** The auth file text; written to userlist.txt, which becomes the default {@code auth_file}. */
    public SluiceProcess userlist(String text) {
        this.userlist = text;
        return this;
    }

    /** Extra JVM options placed before {@code -jar}, e.g. {@code -Xmx256m}. */
    public SluiceProcess jvmArgs(String... args) {
        jvmArgs.addAll(List.of(args));
        return this;
    }

    /** Command-line options placed before the config file, e.g. {@code -v -v}. */
    public SluiceProcess args(String... options) {
        args.addAll(List.of(options));
        return this;
    }

    /** A command the JVM is started through, e.g. {@code prlimit --nofile=200:200}. */
    public SluiceProcess launcher(String... command) {
        launcher.addAll(List.of(command));
        return this;
    }

    /** The java binary to run (default: the one running the tests), e.g. a newer JDK's. */
    public SluiceProcess java(Path binary) {
        this.java = binary;
        return this;
    }

    /** Sets (or with null removes) an environment variable of the child. */
    public SluiceProcess env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** Listens on {@code port} instead of a fresh one: processes of an so_reuseport group share one. */
    public SluiceProcess port(int port) {
        this.port = port;
        return this;
    }

    /** Bound for {@link #start()} to see the port accept (default 30 s). */
    public SluiceProcess startTimeout(Duration timeout) {
        this.startTimeout = timeout;
        return this;
    }

    /** Runs the JVM as the OS user postgres when this JVM is root (default: as the current user). */
    public SluiceProcess asServiceUser(boolean enabled) {
        this.asServiceUser = enabled;
        return this;
    }

    /** Launches and waits until the TCP port accepts; throws with the output if it exits or times out. */
    public SluiceProcess start() {
        launch();
        process.awaitPort(port, startTimeout);
        return this;
    }

    /**
     * Launches and waits until the unix socket in {@code socketDir} (the ini's unix_socket_dir)
     * answers: for a process that shares its TCP port with others, or listens in a network
     * namespace, where the port answering says nothing about this process. Sluice binds its TCP
     * listeners before the unix socket, so those listen by then too.
     */
    public SluiceProcess startOnSocket(Path socketDir) {
        launch();
        process.awaitUnixSocket(socketDir.resolve(".s.PGSQL." + port), startTimeout);
        return this;
    }

    /** Launches without waiting for the port. */
    public synchronized SluiceProcess launch() {
        if (process != null) {
            throw new IllegalStateException("already launched");
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Sluice jar not found: " + jar + " (build it with mvn package first)");
        }
        dir = TempDir.create("sluice-srv-");
        Path iniFile = IniOverrides.writeFixtureConfig(dir, ini, userlist, port);
        List<String> cmd = new ArrayList<>(launcher);
        cmd.add(java.toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-jar", jar.toString()));
        cmd.addAll(args);
        cmd.add(iniFile.toString());
        process = new ServerProcess("sluice", asServiceUser ? OsUser.asServiceUser(cmd) : cmd, dir, env);
        return this;
    }

    public int port() {
        return port;
    }

    public String host() {
        return PgCluster.HOST;
    }

    /** The temp dir (working dir): pgbouncer.ini, userlist.txt, output.log, the unix socket by default. */
    public Path dir() {
        return started().dir;
    }

    public Path iniFile() {
        return dir().resolve("pgbouncer.ini");
    }

    public String jdbcUrl(String db) {
        return Jdbc.url(PgCluster.HOST, port, db);
    }

    public Connection connect(String db, String user, String password) throws SQLException {
        return Jdbc.connect(PgCluster.HOST, port, db, user, password);
    }

    public long pid() {
        return started().process.pid();
    }

    public boolean isAlive() {
        return started().process.isAlive();
    }

    /** Sends a signal by name with {@code kill -s} (HUP, INT, TERM, USR1, USR2 ...). */
    public void signal(String signal) {
        started().process.signal(signal);
    }

    /** Waits at most {@code timeout} for the JVM to exit; true if it has. */
    public boolean waitFor(Duration timeout) {
        return started().process.waitFor(timeout);
    }

    /** The exit code; throws if still running. */
    public int exitCode() {
        return started().process.exitCode();
    }

    /** stdout and stderr so far (kept after {@link #stop()}). */
    public String output() {
        return started().process.output();
    }

    /** SIGTERM, SIGKILL after 10 s, then the temp dir is removed. Idempotent; no-op if never launched. */
    public synchronized void stop() {
        if (process != null) {
            process.stop();
        }
    }

    @Override
    public void close() {
        stop();
    }

    private synchronized SluiceProcess started() {
        if (process == null) {
            throw new IllegalStateException("Sluice process not launched yet");
        }
        return this;
    }
}
