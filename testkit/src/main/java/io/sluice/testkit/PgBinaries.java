package io.sluice.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds PostgreSQL's binaries: the directory named by the system property
 * {@code sluice.pg.bin} or the env var {@code PG_BIN}, else the highest
 * {@code /usr/lib/postgresql/<major>/bin} (Debian's layout). Client tools (psql, pgbench)
 * fall back to the PATH when no such directory exists.
 */
public final class PgBinaries {
    private static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");

    private PgBinaries() {}

    /** The directory holding initdb, pg_ctl and postgres. */
    static Path serverBin() {
        return find().orElseThrow(() -> new IllegalStateException(
                "PostgreSQL server binaries not found: set -Dsluice.pg.bin or PG_BIN, or install postgresql"));
    }

    /** Absolute path of a client tool if the bin dir has it, else its bare name (PATH lookup). */
    public static String tool(String name) {
        return find().map(d -> d.resolve(name)).filter(Files::isExecutable).map(Path::toString).orElse(name);
    }

    private static Optional<Path> find() {
        String configured = System.getProperty("sluice.pg.bin", System.getenv("PG_BIN"));
        if (configured != null && !configured.isBlank()) {
            return Optional.of(Path.of(configured));
        }
        if (!Files.isDirectory(DEBIAN_ROOT)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(DEBIAN_ROOT)) {
            return dirs.filter(d -> d.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .filter(d -> Files.isExecutable(d.resolve("bin/initdb")))
                    .max(Comparator.comparingDouble(d -> Double.parseDouble(d.getFileName().toString())))
                    .map(d -> d.resolve("bin"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
