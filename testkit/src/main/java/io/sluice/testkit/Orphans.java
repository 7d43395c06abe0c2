package io.sluice.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Cleans up after test JVMs that died without running their shutdown hook (SIGKILL, a
 * surefire fork killed on timeout). Every fixture temp dir records its owner JVM's pid in
 * {@value #OWNER_FILE} and a server child's pid in {@value #CHILD_FILE}; once per JVM, before
 * the first fixture starts, dirs whose owner is gone have their cluster stopped and their
 * child killed (only if that pid still runs the expected program), and are deleted. Dirs of
 * live JVMs (other test runs on the same machine) are never touched.
 */
final class Orphans {
    static final String OWNER_FILE = "owner.pid";
    static final String CHILD_FILE = "child.pid";
    private static final List<String> PREFIXES = List.of("sluice-pg-", "sluice-pgb-", "sluice-srv-", ScratchDir.PREFIX);
    private static boolean swept;

    private Orphans() {}

    static synchronized void sweepOnce(Path base) {
        if (swept) {
            return;
        }
        swept = true;
        sweep(base);
    }

    /** Reaps every fixture dir under {@code base} whose owner JVM is gone. */
    static void sweep(Path base) {
        try (Stream<Path> dirs = Files.list(base)) {
            dirs.filter(d -> PREFIXES.stream().anyMatch(p -> d.getFileName().toString().startsWith(p)))
                    .filter(Files::isDirectory)
                    .filter(Orphans::ownerIsGone)
                    .forEach(Orphans::reap);
        } catch (IOException | RuntimeException e) {
            System.err.println("sluice-testkit: orphan sweep skipped: " + e);
        }
    }

    private static boolean ownerIsGone(Path dir) {
        Optional<Long> owner = readPid(dir.resolve(OWNER_FILE));
        return owner.isPresent() && ProcessHandle.of(owner.get()).map(h -> !h.isAlive()).orElse(true);
    }

    private static void reap(Path dir) {
        Path data = dir.resolve("data");
        if (Files.exists(data.resolve("postmaster.pid"))) {
            ProcessRunner.of(OsUser.asServiceUser(List.of(PgBinaries.serverBin().resolve("pg_ctl").toString(),
                            "-D", data.toString(), "-m", "immediate", "-w", "-t", "30", "stop")))
                    .directory(dir).timeout(Duration.ofSeconds(45)).run();
        }
        readPid(dir.resolve(CHILD_FILE)).flatMap(ProcessHandle::of)
                .filter(h -> h.info().command().map(c -> c.endsWith("pgbouncer") || c.endsWith("java")).orElse(false))
                .ifPresent(ProcessHandle::destroyForcibly);
        TempDir.deleteRecursively(dir);
    }

    private static Optional<Long> readPid(Path file) {
        String text = TempDir.read(file).strip();
        return text.matches("\\d+") ? Optional.of(Long.parseLong(text)) : Optional.empty();
    }
}
