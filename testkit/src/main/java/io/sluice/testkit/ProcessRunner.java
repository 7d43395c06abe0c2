package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one external command to completion under a hard timeout, capturing its exit code,
 * stdout and stderr. Configure with the fluent setters, then {@link #run()}.
 *
 * <p>Output goes to temp files rather than pipes: a daemon the command leaves behind
 * (pg_ctl start does that) may keep a pipe open forever, a file never blocks the wait.
 * On timeout the command and all its descendants are killed. Not thread-safe while being
 * configured; {@link #run()} may be called again.
 */
public final class ProcessRunner {
    /** Default hard timeout for a command. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final List<String> command;
    private final Map<String, String> env = new LinkedHashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;
    private Path directory;
    private String stdin;

    private ProcessRunner(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("empty command");
        }
        this.command = List.copyOf(command);
    }

    public static ProcessRunner of(String... command) {
        return new ProcessRunner(List.of(command));
    }

    public static ProcessRunner of(List<String> command) {
        return new ProcessRunner(command);
    }

    /** Adds (or with a null value removes) an environment variable for the command. */
    public ProcessRunner env(String name, String value) {
        env.put(name, value);
        return this;
    }

    public ProcessRunner timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    public ProcessRunner directory(Path directory) {
        this.directory = directory;
        return this;
    }

    /** Text fed to the command's standard input (default: no input, stdin at EOF). */
    public ProcessRunner stdin(String text) {
        this.stdin = text;
        return this;
    }

    /**
     * The same command run as the OS user the servers run as ({@link #serviceUserName()}): wrapped
     * in setpriv/runuser when this JVM is root, unchanged otherwise. Environment, timeout,
     * directory and input carry over.
     */
    public ProcessRunner asServiceUser() {
        ProcessRunner r = new ProcessRunner(OsUser.asServiceUser(command));
        r.env.putAll(env);
        r.timeout = timeout;
        r.directory = directory;
        r.stdin = stdin;
        return r;
    }

    /** The OS user {@link #asServiceUser()} runs as: postgres when this JVM is root, else this JVM's user. */
    public static String serviceUserName() {
        return OsUser.isRoot() ? OsUser.SERVICE_USER : System.getProperty("user.name");
    }

    /** Runs the command and waits at most the timeout; never throws for a non-zero exit. */
    public ProcessResult run() {
        Path out = null;
        Path err = null;
        Path in = null;
        try {
            out = Files.createTempFile("sluice-run-", ".out");
            err = Files.createTempFile("sluice-run-", ".err");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            if (stdin != null) {
                in = Files.createTempFile("sluice-run-", ".in");
                Files.writeString(in, stdin);
                pb.redirectInput(in.toFile());
            } else {
                pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            }
            if (directory != null) {
                pb.directory(directory.toFile());
            }
            env.forEach((k, v) -> {
                if (v == null) {
                    pb.environment().remove(k);
                } else {
                    pb.environment().put(k, v);
                }
            });
            long start = System.nanoTime();
            Process p = pb.start();
            boolean exited = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                killTree(p);
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            return new ProcessResult(command, exited ? p.exitValue() : -1,
                    Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8),
                    !exited, elapsed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
            deleteQuietly(in);
        }
    }

    /**
     * Runs {@code psql -X -A -t -v ON_ERROR_STOP=1} with one {@code -c} command over TCP.
     * {@code password} (may be null) is passed as PGPASSWORD; SSL is not attempted.
     */
    public static ProcessResult psql(String host, int port, String db, String user, String password, String sql) {
        return psqlCommand(host, port, db, user, password, sql).run();
    }

    /** The runner {@link #psql} uses, for callers that want another timeout or extra env. */
    public static ProcessRunner psqlCommand(String host, int port, String db, String user, String password, String sql) {
        ProcessRunner r = of(PgBinaries.tool("psql"), "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", host, "-p", Integer.toString(port), "-U", user, "-d", db, "-c", sql);
        return r.env("PGPASSWORD", password)
                .env("PGSSLMODE", "disable")
                .env("PGCONNECT_TIMEOUT", "10")
                .env("PGOPTIONS", null)
                .env("PGSERVICE", null);
    }

    /** Runs {@code pgbench} with the given arguments under a 5 minute timeout. */
    public static ProcessResult pgbench(String... args) {
        return pgbenchCommand(args).run();
    }

    /** The runner {@link #pgbench} uses; add {@code env("PGPASSWORD", ..)} or another timeout. */
    public static ProcessRunner pgbenchCommand(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(PgBinaries.tool("pgbench"));
        cmd.addAll(List.of(args));
        return of(cmd).timeout(Duration.ofMinutes(5)).env("PGSSLMODE", "disable").env("PGCONNECT_TIMEOUT", "10");
    }

    /** Kills a process and everything it started, children first so none is re-parented alive. */
    static void killTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteQuietly(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a leftover temp file is harmless
            }
        }
    }
}
