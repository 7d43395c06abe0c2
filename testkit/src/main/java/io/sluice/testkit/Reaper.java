package io.sluice.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Last-resort cleanup: one JVM shutdown hook that runs every registered action (newest first),
 * so clusters and child processes never outlive the test JVM even if a test forgets to close
 * them. Owners unregister when they clean up themselves. Thread-safe.
 */
final class Reaper {
    private static final Map<Long, Runnable> ACTIONS = new LinkedHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();
    private static boolean hooked;

    private Reaper() {}

    /** Registers an action; returns the id to {@link #unregister} it with. */
    static synchronized long register(Runnable action) {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(Reaper::runAll, "sluice-testkit-reaper"));
            hooked = true;
        }
        long id = IDS.incrementAndGet();
        ACTIONS.put(id, action);
        return id;
    }

    static synchronized void unregister(long id) {
        ACTIONS.remove(id);
    }

    private static void runAll() {
        List<Runnable> actions;
        synchronized (Reaper.class) {
            actions = new ArrayList<>(ACTIONS.values());
            ACTIONS.clear();
        }
        for (int i = actions.size() - 1; i >= 0; i--) {
            try {
                actions.get(i).run();
            } catch (RuntimeException | Error e) {
                System.err.println("sluice-testkit: cleanup failed: " + e);
            }
        }
    }
}
