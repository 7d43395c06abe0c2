package io.sluice.it;

import io.sluice.testkit.FreePorts;
import io.sluice.testkit.PgBinaries;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice processes sharing one TCP port with {@code so_reuseport = 1}, peered as PgBouncer's
 * docs lay it out: each its own {@code peer_id} and unix_socket_dir, and {@code [peers]} naming
 * every one by its unix socket, the only address that reaches one process of the group.
 */
final class ReusePortGroup implements AutoCloseable {
    private static final Path JAR = Path.of("target", "sluice.jar");

    final int port = FreePorts.next();
    private final int peers;
    private final String databases;
    private final String settings;
    private final List<String> launcher;
    private final Path base;
    private final Map<Integer, SluiceProcess> started = new TreeMap<>();

    /**
     * @param peers     peer ids 1..peers go into {@code [peers]}
     * @param databases the {@code [databases]} lines
     * @param settings  more {@code [pgbouncer]} lines
     * @param launcher  what each JVM is started through (e.g. {@code ip netns exec NAME}), or none
     */
    ReusePortGroup(int peers, String databases, String settings, List<String> launcher) throws IOException {
        this.peers = peers;
        this.databases = databases;
        this.settings = settings;
        this.launcher = launcher;
        this.base = Files.createTempDirectory("sluice-peers");
    }

    Path socketDir(int peerId) {
        Path d = base.resolve("p" + peerId);
        try {
            return Files.createDirectories(d);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Starts peer {@code peerId}; returns once its unix socket answers (its TCP listener is up by then). */
    SluiceProcess start(int peerId) {
        StringBuilder ini = new StringBuilder("[databases]\n").append(databases).append("\n[pgbouncer]\n")
                .append("auth_type = trust\nadmin_users = postgres\n")
                .append("ignore_startup_parameters = extra_float_digits\n")
                .append("so_reuseport = 1\npeer_id = ").append(peerId).append('\n')
                .append("unix_socket_dir = ").append(socketDir(peerId)).append('\n')
                .append(settings).append("\n[peers]\n");
        for (int id = 1; id <= peers; id++) {
            ini.append(id).append(" = host=").append(socketDir(id)).append(" port=").append(port).append('\n');
        }
        SluiceProcess p = new SluiceProcess(JAR).jvmArgs("-Xmx128m").port(port).ini(ini.toString())
                .userlist("\"postgres\" \"\"\n");
        if (!launcher.isEmpty()) {
            p.launcher(launcher.toArray(String[]::new));
        }
        started.put(peerId, p);
        return p.startOnSocket(socketDir(peerId));
    }

    SluiceProcess process(int peerId) {
        return started.get(peerId);
    }

    /** Rows of an admin console command, asked of one process over its own unix socket. */
    List<String[]> console(int peerId, String command) {
        ProcessResult r = consoleWithHeader(peerId, command);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.out().lines().skip(1).filter(l -> !l.isBlank() && !l.matches("\\(\\d+ rows?\\)"))
                .map(l -> l.split("\\|", -1)).toList();
    }

    /** psql's unaligned output of one console command, the header line first (exit code and stderr kept). */
    ProcessResult consoleWithHeader(int peerId, String command) {
        return ProcessRunner.of(PgBinaries.tool("psql"), "-X", "-A", "-v", "ON_ERROR_STOP=1", "-h",
                socketDir(peerId).toString(), "-p", Integer.toString(port), "-U", "postgres", "-d", "pgbouncer",
                "-c", command).env("PGOPTIONS", null).env("PGSERVICE", null).run();
    }

    @Override
    public void close() throws IOException {
        List<SluiceProcess> all = new ArrayList<>(started.values());
        all.forEach(SluiceProcess::stop);
        try (Stream<Path> files = Files.walk(base)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
