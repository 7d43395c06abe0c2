package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temp directories for server processes: created directly under /tmp (short paths keep unix
 * socket names under the 107-byte limit, and /tmp is reachable by the service user), mode
 * 0755, handed to the service user when we are root; deleted recursively when done. Each
 * records the owner JVM's pid so {@link Orphans} can clean up after a JVM that was killed.
 */
final class TempDir {
    private TempDir() {}

    static Path create(String prefix) {
        try {
            Path base = Files.isDirectory(Path.of("/tmp")) ? Path.of("/tmp") : Path.of(System.getProperty("java.io.tmpdir"));
            Orphans.sweepOnce(base);
            Path dir = Files.createTempDirectory(base, prefix);
            Files.writeString(dir.resolve(Orphans.OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
            // Set explicitly: createTempDirectory applies the umask and defaults to 0700.
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            OsUser.handOver(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir", e);
        }
    }

    /** Creates a subdirectory (mode 0755) owned like its parent. */
    static Path subdir(Path parent, String name) {
        try {
            Path dir = Files.createDirectories(parent.resolve(name));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            OsUser.handOver(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + parent.resolve(name), e);
        }
    }

    /** Writes a text file (mode 0644) owned by the service user when we are root. */
    static Path write(Path file, String text) {
        try {
            Files.writeString(file, text);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
            OsUser.handOver(file);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Reads a text file, or "" if it does not exist (yet). */
    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: a file a dying server is still writing may reappear
                }
            });
        } catch (IOException ignored) {
            // best effort cleanup of a temp dir
        }
    }
}
