package io.sluice.runtime;

import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * PgBouncer's start-up line on file descriptors: the process's RLIMIT_NOFILE (soft and hard)
 * against the most the configuration can use, computed as PgBouncer does: max_client_conn plus
 * 10, plus per database its pool size, times the number of users unless the database forces
 * one (the console's database: a pool of 2 for its own user).
 */
final class FdLimits {
    private FdLimits() {
    }

    /** The log line, or empty when the limits cannot be read (not Linux). */
    static Optional<String> line(ConfigSnapshot c, int users) {
        return limits(Path.of("/proc/self/limits")).map(l -> "kernel file descriptor limit: " + l[0] + " (hard: " + l[1]
                + "); max_client_conn: " + c.maxClientConn() + ", max expected fd use: " + expectedUse(c, users));
    }

    static int expectedUse(ConfigSnapshot c, int users) {
        int fds = c.maxClientConn() + 10 + 2; // the console's pool
        for (DatabaseEntry e : c.databases().values()) {
            int size = e.poolSize().orElse(c.defaultPoolSize());
            fds += e.hasForcedUser() ? size : size * users;
        }
        return fds;
    }

    /** {soft, hard} from a /proc limits file; "unlimited" as -1. */
    static Optional<long[]> limits(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith("Max open files")).findFirst()
                    .map(l -> l.substring("Max open files".length()).trim().split("\\s+"))
                    .map(f -> new long[] {number(f[0]), number(f[1])});
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static long number(String s) {
        return "unlimited".equals(s) ? -1 : Long.parseLong(s);
    }
}
