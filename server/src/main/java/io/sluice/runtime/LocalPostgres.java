package io.sluice.runtime;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL from this machine's binaries (/usr/lib/postgresql/N/bin) for the quick
 * start: initdb into a temp dir, start on a free loopback port. PostgreSQL refuses to run as
 * root, so as root it runs as the {@code postgres} OS user (setpriv).
 */
final class LocalPostgres implements AutoCloseable {
    private final Path bin;
    private final Path dir;
    private final int port;
    private boolean closed;

    private LocalPostgres(Path bin, Path dir, int port) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
    }

    int port() {
        return port;
    }

    Path dir() {
        return dir;
    }

    static LocalPostgres start() throws IOException, InterruptedException {
        Path bin = findBinaries();
        Path dir = Files.createTempDirectory("sluice-quickstart");
        boolean root = UnixUser.uid() == 0;
        dir.toFile().setReadable(true, false);
        dir.toFile().setExecutable(true, false);
        if (root) {
            run(List.of("chown", "postgres:", dir.toString()), false);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path data = dir.resolve("data");
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "--no-sync"), root);
        Files.writeString(data.resolve("postgresql.auto.conf"), "listen_addresses = '127.0.0.1'\nport = " + port
                + "\nunix_socket_directories = '" + dir + "'\nmax_connections = 200\n",
                java.nio.file.StandardOpenOption.APPEND);
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("postgres.log").toString(),
                "-w", "start"), root);
        return new LocalPostgres(bin, dir, port);
    }

    private static Path findBinaries() throws IOException {
        Path base = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(base)) {
            throw new IOException("not supported: no PostgreSQL binaries under /usr/lib/postgresql"
                    + " (apt-get install -y postgresql), and no config file given");
        }
        try (Stream<Path> versions = Files.list(base)) {
            return versions.map(p -> p.resolve("bin"))
                    .filter(p -> Files.isExecutable(p.resolve("initdb")))
                    .max(Comparator.comparingInt(p -> Integer.parseInt(p.getParent().getFileName().toString()
                            .replaceAll("\\D", "0"))))
                    .orElseThrow(() -> new IOException("not supported: no initdb under /usr/lib/postgresql/*/bin"));
        }
    }

    private static void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (asPostgres) {
            cmd.addAll(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"));
        }
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed:\n" + out);
        }
    }

    @Override
    public synchronized void close() {
        // synchronized, not just once: the JVM's shutdown hook calls this while the server's
        // end is still stopping PostgreSQL, and must wait for the directory to be removed, or
        // the JVM exits first and leaves the directory (39 MB) behind
        if (closed) {
            return;
        }
        closed = true;
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w",
                    "stop"), UnixUser.uid() == 0);
        } catch (IOException | InterruptedException e) {
            System.err.println("stopping the quick-start PostgreSQL failed: " + e.getMessage());
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + dir + ": " + e.getMessage());
        }
    }
}
