package io.sluice.testkit;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test's own scratch directory under /tmp (config files, userlists, hba files), removed when
 * the test deletes it, else when the JVM exits, else by the next test JVM's orphan sweep: test
 * runs leave nothing behind in /tmp.
 */
public final class ScratchDir {
    static final String PREFIX = "sluice-tmp-";
    private static final Map<Path, Long> REAPERS = new ConcurrentHashMap<>();

    private ScratchDir() {}

    /** A new directory (mode 0755) named after {@code what}. */
    public static Path create(String what) {
        Path dir = TempDir.create(PREFIX + what + "-");
        REAPERS.put(dir, Reaper.register(() -> TempDir.deleteRecursively(dir)));
        return dir;
    }

    /** Removes {@code dir} and everything in it now. */
    public static void delete(Path dir) {
        Long reaper = REAPERS.remove(dir);
        if (reaper != null) {
            Reaper.unregister(reaper);
        }
        TempDir.deleteRecursively(dir);
    }
}
