package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The steps that bring a {@link PgCluster}'s temp dir to a running server: initdb, our own
 * pg_hba.conf, postgresql.conf additions (speed settings, the caller's lines, then the
 * listen settings last so nothing can move the port), and {@code pg_ctl -w start}.
 */
final class PgClusterSetup {
    private PgClusterSetup() {}

    static void initAndStart(PgCluster c, String hba, List<String> extraConfig, String hostAuth,
                             java.util.Map<String, java.nio.file.Path> dataFiles, Duration startTimeout,
                             List<String> alsoListen) {
        TempDir.subdir(c.baseDir(), "sock");
        String bin = PgBinaries.serverBin().toString();
        ProcessResult init = asServiceUser(c, Duration.ofMinutes(2), cmd -> cmd, bin + "/initdb",
                "-D", c.dataDir().toString(),
                "-U", PgCluster.SUPERUSER, "--auth-local=trust", "--auth-host=" + hostAuth,
                "-E", "UTF8", "--no-locale", "--no-sync");
        if (!init.ok()) {
            throw new IllegalStateException("initdb failed: " + init.describe());
        }
        TempDir.write(c.dataDir().resolve("pg_hba.conf"), hba);
        dataFiles.forEach((name, source) -> copyPrivate(source, c.dataDir().resolve(name)));
        StringBuilder conf = new StringBuilder("\n# added by the sluice testkit\n")
                .append("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n");
        extraConfig.forEach(line -> conf.append(line).append('\n'));
        appendListenSettings(c, conf, alsoListen);
        long seconds = Math.max(1, startTimeout.toSeconds());
        // pg_ctl start in the cluster's namespace, if any: the postmaster it forks stays there
        ProcessResult start = asServiceUser(c, startTimeout.plusSeconds(30), c::inNamespace, bin + "/pg_ctl",
                "-D", c.dataDir().toString(),
                "-l", c.logFile().toString(), "-w", "-t", Long.toString(seconds), "start");
        if (!start.ok()) {
            throw new IllegalStateException("pg_ctl start failed: " + start.describe()
                    + "\n--- server log ---\n" + c.logText());
        }
    }

    /** pg_basebackup of {@code primary} into the standby's data dir (with -R), then its own listen settings and start. */
    static void basebackupAndStart(PgCluster c, PgCluster primary, List<String> extraConfig, Duration startTimeout) {
        TempDir.subdir(c.baseDir(), "sock");
        String bin = PgBinaries.serverBin().toString();
        ProcessResult backup = asServiceUser(c, Duration.ofMinutes(2), cmd -> cmd, bin + "/pg_basebackup",
                "-D", c.dataDir().toString(), "-R", "-X", "stream", "-c", "fast",
                "-h", primary.host(), "-p", Integer.toString(primary.port()), "-U", PgCluster.SUPERUSER);
        if (!backup.ok()) {
            throw new IllegalStateException("pg_basebackup failed: " + backup.describe());
        }
        StringBuilder conf = new StringBuilder("\n# standby, added by the sluice testkit\n");
        extraConfig.forEach(line -> conf.append(line).append('\n'));
        appendListenSettings(c, conf, List.of());
        ProcessResult start = asServiceUser(c, startTimeout.plusSeconds(30), cmd -> cmd, bin + "/pg_ctl",
                "-D", c.dataDir().toString(), "-l", c.logFile().toString(), "-w",
                "-t", Long.toString(Math.max(1, startTimeout.toSeconds())), "start");
        if (!start.ok()) {
            throw new IllegalStateException("standby start failed: " + start.describe() + "\n--- server log ---\n"
                    + c.logText());
        }
    }

    /** The listen settings go last, so nothing before them can move the port; then the lines are appended. */
    private static void appendListenSettings(PgCluster c, StringBuilder conf, List<String> alsoListen) {
        conf.append("listen_addresses = '").append(c.host());
        alsoListen.forEach(a -> conf.append(',').append(a));
        conf.append("'\n")
                .append("port = ").append(c.port()).append('\n')
                .append("unix_socket_directories = '").append(c.socketDir()).append("'\n");
        try {
            Files.writeString(c.dataDir().resolve("postgresql.conf"), conf, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extend postgresql.conf", e);
        }
    }

    private static void copyPrivate(java.nio.file.Path source, java.nio.file.Path target) {
        try {
            Files.copy(source, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            OsUser.handOver(target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + source + " into the data directory", e);
        }
    }

    private static ProcessResult asServiceUser(PgCluster c, Duration timeout, UnaryOperator<List<String>> place,
                                               String... command) {
        // HOME and the working dir point into the temp dir: the service user may not reach ours.
        return ProcessRunner.of(place.apply(OsUser.asServiceUser(List.of(command))))
                .directory(c.baseDir())
                .env("HOME", c.baseDir().toString())
                .env("LC_ALL", "C")
                .env("PGDATA", null)
                .timeout(timeout)
                .run();
    }
}
