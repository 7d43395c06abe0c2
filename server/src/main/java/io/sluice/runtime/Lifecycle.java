package io.sluice.runtime;

import java.util.concurrent.CompletionStage;

/**
 * A running Sluice server as the process shell sees it. Implemented by the server; called by
 * {@link Signals} (and by the console for RELOAD/PAUSE/RESUME/SHUTDOWN).
 *
 * <p>Threading: every method may be called from any thread (signals arrive on the JVM's
 * signal-dispatcher thread) and must return promptly; the work happens on the server's threads.
 */
public interface Lifecycle {
    /** SIGHUP / RELOAD: re-read the config files, reopen the logfile, keep the old config on failure. */
    void reload();

    /** SIGUSR1 / PAUSE: stop handing out server connections. */
    void pause();

    /** SIGUSR2 / RESUME: continue from PAUSE or SUSPEND. */
    void resume();

    /**
     * SIGTERM / SHUTDOWN WAIT_FOR_CLIENTS: close the listeners, exit when all clients are gone.
     * During SUSPEND this exits at once (PgBouncer: "suspend was in progress, going down
     * immediately").
     */
    void shutdownWaitForClients();

    /**
     * SIGINT / SHUTDOWN WAIT_FOR_SERVERS: pause, close the listeners, exit when all server
     * connections are released. During SUSPEND this exits at once.
     */
    void shutdownWaitForServers();

    /** Second SIGTERM/SIGINT, SHUTDOWN: close everything and complete {@link #terminated()} now. */
    void shutdownNow();

    /** True once any shutdown has started. */
    boolean shuttingDown();

    /** Current pause state; SIGUSR1/SIGUSR2 pick their log line and action from it. */
    PauseMode pauseMode();

    /** The socket I/O the server runs on, as the {@code process up} line names it ("io_uring"). */
    String transport();

    /** Completes with the process exit code when the server has stopped. */
    CompletionStage<Integer> terminated();
}
