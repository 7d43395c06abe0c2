package io.sluice.runtime;

import io.sluice.log.Log;
import java.time.Clock;

/**
 * Child-JVM probe for signal tests: installs {@link Signals} over a {@link FakeLifecycle} that
 * prints each call as "event NAME", logs to stdout, prints "ready" and exits with the code of
 * terminated(). Argument "raw-hup" instead reports whether the JVM lets Java handle SIGHUP;
 * "busy" adds a thread that keeps running Java code.
 * First it prints its arguments and the environment a handover successor depends on.
 */
public final class SignalProbeMain {
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("raw-hup")) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal("HUP"), s -> { });
                System.out.println("raw-hup registered");
            } catch (IllegalArgumentException e) {
                System.out.println("raw-hup refused: " + e.getMessage());
            }
            System.out.println("ready");
            System.out.flush();
            waitForever();
        }
        if (args.length > 0 && args[0].equals("busy")) {
            busy();
        }
        System.out.println("args " + java.util.Arrays.asList(args) + " handover-from " + System.getenv("SLUICE_HANDOVER_FROM")
                + " default " + System.getenv("SLUICE_TEST_DEFAULT"));
        Log log = new Log(Clock.systemUTC(), LauncherEnv.current().publicPid(), System.out);
        FakeLifecycle lifecycle = new FakeLifecycle(e -> {
            System.out.println("event " + e);
            System.out.flush();
        });
        new Signals(lifecycle, log, () -> Runtime.getRuntime().halt(0)).install();
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        System.exit(lifecycle.terminated().toCompletableFuture().join());
    }

    /** A thread that stays in Java code (for at most a minute), so a profiler has one to sample. */
    private static void busy() {
        Thread t = new Thread(() -> {
            long end = System.nanoTime() + 60_000_000_000L;
            long n = 0;
            while (System.nanoTime() < end) {
                n += Long.numberOfTrailingZeros(n + 1);
            }
            System.out.println("busy done " + n);
        }, "busy");
        t.setDaemon(true);
        t.start();
    }

    private static void waitForever() {
        Object o = new Object();
        synchronized (o) {
            while (true) {
                try {
                    o.wait();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
