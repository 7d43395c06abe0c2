package io.sluice.runtime;

import java.util.Map;
import java.util.Optional;

/**
 * What the {@code sluice} launcher script tells the JVM through the environment: its own path
 * ({@code SLUICE_LAUNCHER}) so daemon mode can start a detached launcher again, and its pid
 * ({@code SLUICE_LAUNCHER_PID}). The launcher stays the JVM's parent and forwards signals, so
 * its pid is the one operators signal: it goes into the pidfile and the log lines.
 */
public final class LauncherEnv {
    /** The signal the launcher sends the JVM when it receives SIGQUIT (which a JVM cannot handle). */
    public static final String QUIT_STAND_IN = "PWR";

    private final Map<String, String> env;
    private final ProcessHandle self;

    public LauncherEnv(Map<String, String> env, ProcessHandle self) {
        this.env = env;
        this.self = self;
    }

    public static LauncherEnv current() {
        return new LauncherEnv(System.getenv(), ProcessHandle.current());
    }

    /** The launcher's pid, if the launcher really is this JVM's parent. */
    public Optional<Long> launcherPid() {
        String value = env.get("SLUICE_LAUNCHER_PID");
        if (value == null) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        // A stale variable (e.g. inherited through a daemon relaunch) must not be trusted.
        boolean parent = self.parent().map(p -> p.pid() == pid).orElse(false);
        return parent ? Optional.of(pid) : Optional.empty();
    }

    /** The pid for the pidfile and log lines: the launcher's when it is our parent, else ours. */
    public long publicPid() {
        return launcherPid().orElse(self.pid());
    }

    /** The launcher script's path, when started through it. */
    public Optional<String> launcherPath() {
        String value = env.get("SLUICE_LAUNCHER");
        return value == null || value.isBlank() || launcherPid().isEmpty() ? Optional.empty() : Optional.of(value);
    }
}
