package io.sluice.compat;

import java.util.function.Supplier;

/**
 * One pooler under comparison (PgBouncer or Sluice): either a process this run owns, which
 * {@link #coldStart()} replaces with a fresh one so every workload meets an empty pool, or a
 * running one the user named by address, which is used as found. Used by the run's one
 * coordinating thread.
 */
final class Target implements AutoCloseable {
    /** A started pooler: where it listens and how to stop it. */
    record Running(int port, AutoCloseable handle) {}

    private final String name;
    private final String host;
    private final Supplier<Running> starter;
    private Running running;

    private Target(String name, String host, Supplier<Running> starter, Running running) {
        this.name = name;
        this.host = host;
        this.starter = starter;
        this.running = running;
    }

    static Target owned(String name, Supplier<Running> starter) {
        return new Target(name, "127.0.0.1", starter, null);
    }

    static Target attached(String name, String host, int port) {
        return new Target(name, host, null, new Running(port, () -> { }));
    }

    String name() {
        return name;
    }

    String host() {
        return host;
    }

    int port() {
        if (running == null) {
            throw new IllegalStateException(name + " is not started");
        }
        return running.port();
    }

    boolean owned() {
        return starter != null;
    }

    /** Stops the owned process (if any) and starts a new one; an attached target is left alone. */
    void coldStart() {
        if (starter == null) {
            return;
        }
        stopQuietly();
        running = starter.get();
    }

    @Override
    public void close() {
        if (starter != null) {
            stopQuietly();
        }
    }

    private void stopQuietly() {
        if (running != null) {
            try {
                running.handle().close();
            } catch (Exception e) {
                System.err.println("sluice-compat: stopping " + name + " failed: " + e);
            }
            running = null;
        }
    }
}
