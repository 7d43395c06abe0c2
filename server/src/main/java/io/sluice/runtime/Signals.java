package io.sluice.runtime;

import io.sluice.log.Log;
import java.util.List;

/**
 * PgBouncer 1.25 signal semantics on top of a {@link Lifecycle}, with PgBouncer's log lines:
 * HUP reload; TERM wait-for-clients shutdown; INT wait-for-servers shutdown (a second TERM/INT,
 * or either during a shutdown, exits at once); USR1 pause; USR2 resume (ignored while shutting
 * down); QUIT immediate exit.
 *
 * <p>SIGQUIT never reaches Java code (HotSpot reserves it), so the launcher script receives it
 * and sends {@link LauncherEnv#QUIT_STAND_IN} instead; that signal is handled as QUIT here.
 * Under {@code -Xrs} the JVM runs no Java signal handlers at all, so {@link #install} refuses it.
 *
 * <p>Threading: the JDK runs each signal on a fresh thread; {@link #handle} is synchronized so
 * "second TERM" decisions see the first one's effect.
 */
public final class Signals {
    /** The signals {@link #install} registers (QUIT arrives as the stand-in). */
    public static final List<String> HANDLED = List.of("HUP", "INT", "TERM", "USR1", "USR2");

    private final Lifecycle lifecycle;
    private final Log log;
    private final Runnable fastExit;

    /**
     * @param fastExit ends the process immediately after cleanup (pidfile removal); called on QUIT,
     *                 and on TERM or INT during a shutdown
     */
    public Signals(Lifecycle lifecycle, Log log, Runnable fastExit) {
        this.lifecycle = lifecycle;
        this.log = log;
        this.fastExit = fastExit;
    }

    /** Registers the JVM handlers; FATAL if the JVM refuses one (it does for HUP/INT/TERM under -Xrs). */
    @SuppressWarnings("removal")
    public void install() {
        for (String name : HANDLED) {
            register(name, name);
        }
        register(LauncherEnv.QUIT_STAND_IN, "QUIT");
    }

    private void register(String jvmName, String meaning) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(jvmName), s -> handle(meaning));
        } catch (IllegalArgumentException e) {
            // the JVM's arguments are looked at only here: the management beans cost ~20 ms of every start
            if (java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-Xrs")) {
                throw new FatalError("the JVM was started with -Xrs, which disables Java signal handlers;"
                        + " start Sluice without -Xrs (the sluice launcher handles SIGQUIT)");
            }
            throw new FatalError("cannot handle SIG" + jvmName + ": " + e.getMessage(), e);
        }
    }

    /** Acts on one signal by name without the {@code SIG} prefix: HUP, INT, TERM, USR1, USR2, QUIT. */
    public synchronized void handle(String name) {
        switch (name) {
            case "HUP" -> {
                log.info("got SIGHUP, re-reading config");
                lifecycle.reload();
            }
            case "TERM" -> shutdown(name, "waiting for all clients disconnect", lifecycle::shutdownWaitForClients);
            case "INT" -> shutdown(name, "waiting for all servers connections to be released",
                    lifecycle::shutdownWaitForServers);
            case "USR1" -> {
                if (lifecycle.pauseMode() == PauseMode.NONE) {
                    log.info("got SIGUSR1, pausing all activity");
                    lifecycle.pause();
                } else {
                    log.info("got SIGUSR1, but already paused/suspended");
                }
            }
            case "USR2" -> usr2();
            case "QUIT" -> {
                log.info("got SIGQUIT, fast exit");
                fastExit.run();
            }
            default -> throw new IllegalArgumentException("not a handled signal: " + name);
        }
    }

    /**
     * SIGTERM and SIGINT: the first starts a graceful shutdown, a second one while it runs exits
     * at once, as PgBouncer's exit(0): the clients see their connections end, as with SIGQUIT.
     */
    private void shutdown(String name, String waitingFor, Runnable graceful) {
        if (lifecycle.shuttingDown()) {
            log.info("got SIG" + name + " while shutting down, fast exit");
            fastExit.run();
        } else {
            log.info("got SIG" + name + ", shutting down, " + waitingFor);
            graceful.run();
        }
    }

    private void usr2() {
        if (lifecycle.shuttingDown()) {
            log.info("got SIGUSR2 while shutting down, ignoring");
            return;
        }
        switch (lifecycle.pauseMode()) {
            case SUSPEND -> {
                log.info("got SIGUSR2, continuing from SUSPEND");
                lifecycle.resume();
            }
            case PAUSE -> {
                log.info("got SIGUSR2, continuing from PAUSE");
                lifecycle.resume();
            }
            case NONE -> log.info("got SIGUSR2, but not paused/suspended");
        }
    }
}
