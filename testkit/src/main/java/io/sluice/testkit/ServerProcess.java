package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One long-running child server (PgBouncer or Sluice) with its stdout and stderr merged into
 * a file in its temp dir. Knows how to wait for its TCP port, signal it, and stop it:
 * SIGTERM, then SIGKILL after a bounded grace period; then the temp dir is removed and the
 * output kept in memory. A shutdown hook kills it if the owner never did. Thread-safe.
 */
final class ServerProcess {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Path dir;
    private final Path outputFile;
    private final Process process;
    private final long reaperId;
    private String finalOutput;

    ServerProcess(String name, List<String> command, Path dir, Map<String, String> env) {
        this.name = name;
        this.dir = dir;
        this.outputFile = dir.resolve("output.log");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(outputFile.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        try {
            this.process = pb.start();
        } catch (IOException e) {
            TempDir.deleteRecursively(dir);
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
        this.reaperId = Reaper.register(() -> ProcessRunner.killTree(process));
        try {
            Files.writeString(dir.resolve(Orphans.CHILD_FILE), Long.toString(process.pid()));
        } catch (IOException e) {
            // Only the orphan sweep needs it; the shutdown hook still covers this JVM.
            System.err.println("sluice-testkit: cannot record the pid of " + name + ": " + e);
        }
    }

    /**
     * Polls a TCP connect to 127.0.0.1:port until it succeeds. If the process exits first or
     * the deadline passes, stops it and throws with its output.
     */
    void awaitPort(int port, Duration timeout) {
        await(() -> accepts(port), "port " + port, timeout);
    }

    void awaitUnixSocket(Path socket, Duration timeout) {
        await(() -> answers(socket), socket.toString(), timeout);
    }

    private void await(java.util.function.BooleanSupplier ready, String where, Duration timeout) {
        boolean up = Await.poll(timeout, () -> !process.isAlive() || ready.getAsBoolean());
        if (!up || !process.isAlive()) {
            String why = !process.isAlive() ? "exited with code " + process.exitValue()
                    : "did not accept connections on " + where + " within " + timeout.toMillis() + " ms";
            stop();
            throw new IllegalStateException(name + " " + why + "\n--- output ---\n" + output());
        }
    }

    private static boolean answers(Path socket) {
        try (java.nio.channels.SocketChannel ch = java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            return ch.connect(java.net.UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(PgCluster.HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Sends a signal by name (HUP, INT, TERM, USR1, USR2, KILL ...) with {@code kill -s}. */
    void signal(String signal) {
        ProcessRunner.of("kill", "-s", signal, Long.toString(process.pid()))
                .timeout(Duration.ofSeconds(10)).run().requireSuccess();
    }

    /** Waits at most {@code timeout} for the process to exit; true if it has. */
    boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + name, e);
        }
    }

    /** The exit code; throws if the process is still running. */
    int exitCode() {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") is still running");
        }
        return process.exitValue();
    }

    /** Everything the process wrote to stdout and stderr so far. */
    synchronized String output() {
        return finalOutput != null ? finalOutput : TempDir.read(outputFile);
    }

    /** SIGTERM, SIGKILL after the grace period, then removes the temp dir. Idempotent. */
    synchronized void stop() {
        if (finalOutput != null) {
            return;
        }
        if (process.isAlive()) {
            process.destroy();
            if (!waitFor(STOP_GRACE)) {
                ProcessRunner.killTree(process);
            }
        }
        Reaper.unregister(reaperId);
        finalOutput = TempDir.read(outputFile);
        TempDir.deleteRecursively(dir);
    }
}
