package io.sluice.runtime;

import io.sluice.log.Log;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Daemon mode ({@code -d}) for a JVM, which cannot fork: start the same command line again
 * without {@code -d} and with {@link Cli#DAEMON_CHILD_FLAG}, in a new session ({@code setsid}),
 * stdio on /dev/null; then wait until the child has written the pidfile and exit 0. When the
 * process runs under the {@code sluice} launcher, the launcher is started again (so the daemon
 * keeps its SIGQUIT handling); otherwise the java command line itself.
 *
 * <p>Threading: used once, from the main thread, before the server starts.
 */
public final class Daemonizer {
    private static final Duration POLL = Duration.ofMillis(50);

    private final Log log;
    private final Duration timeout;

    public Daemonizer(Log log, Duration timeout) {
        this.log = log;
        this.timeout = timeout;
    }

    /**
     * Starts the detached child and waits for its pidfile. Returns 0 once a live pid is in the
     * pidfile; the child's exit status if it exits non-zero first; FATAL on timeout.
     */
    public int detach(String[] appArgs, Pidfile pidfile, LauncherEnv launcher) {
        List<String> command = new ArrayList<>();
        command.add(findSetsid());
        command.addAll(relaunchPrefix(launcher, currentCommandLine(), appArgs));
        command.addAll(childArgs(appArgs));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("SLUICE_LAUNCHER_PID"); // the new launcher sets its own
        Process child;
        try {
            child = pb.start();
        } catch (IOException e) {
            throw new FatalError("could not start daemon process: " + e.getMessage(), e);
        }
        return awaitPidfile(child, pidfile);
    }

    int awaitPidfile(Process child, Pidfile pidfile) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long pid = pidfile.read();
            if (pid > 0 && Pidfile.isAlive(pid)) {
                return 0;
            }
            // setsid(1) forks when it must; its exit 0 then says nothing about the daemon.
            if (!child.isAlive() && child.exitValue() != 0) {
                int rc = child.exitValue();
                log.fatal("daemon process exited with status " + rc + " before writing pidfile '"
                        + pidfile.path() + "', see logfile");
                return rc;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new FatalError("daemon process did not write pidfile '" + pidfile.path()
                        + "' within " + timeout.toSeconds() + " s");
            }
            try {
                if (child.isAlive()) {
                    child.waitFor(POLL.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                } else {
                    Thread.sleep(POLL.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FatalError("interrupted while waiting for the daemon process", e);
            }
        }
    }

    /** What to run in the new session, before the application arguments. */
    static List<String> relaunchPrefix(LauncherEnv launcher, List<String> currentCommand, String[] appArgs) {
        Optional<String> script = launcher.launcherPath();
        if (script.isPresent()) {
            return List.of("/bin/sh", script.get());
        }
        int jvmPart = currentCommand.size() - appArgs.length;
        List<String> tail = currentCommand.subList(jvmPart, currentCommand.size());
        if (jvmPart < 1 || !tail.equals(Arrays.asList(appArgs))) {
            throw new FatalError("not supported: -d cannot rebuild this JVM's command line");
        }
        return new ArrayList<>(currentCommand.subList(0, jvmPart));
    }

    /** This process's argv: the java binary, JVM options, main class or jar, application arguments. */
    static List<String> currentCommandLine() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> all = new ArrayList<>();
        all.add(info.command().orElseThrow(() ->
                new FatalError("not supported: -d cannot find this JVM's executable")));
        all.addAll(Arrays.asList(info.arguments().orElse(new String[0])));
        return all;
    }

    /**
     * The application arguments without {@code -d}/{@code --daemon} (also inside clusters such as
     * {@code -dv}), prefixed with {@link Cli#DAEMON_CHILD_FLAG}. A {@code -u} value is kept verbatim.
     */
    static List<String> childArgs(String[] appArgs) {
        List<String> out = new ArrayList<>();
        out.add(Cli.DAEMON_CHILD_FLAG);
        boolean valueNext = false;
        boolean optionsEnded = false;
        for (String a : appArgs) {
            if (valueNext || optionsEnded) {
                out.add(a);
                valueNext = false;
                continue;
            }
            if (a.equals("--")) {
                optionsEnded = true;
                out.add(a);
            } else if (a.equals("--daemon")) {
                continue;
            } else if (a.equals("--user")) {
                valueNext = true;
                out.add(a);
            } else if (a.startsWith("-") && !a.startsWith("--") && a.length() > 1) {
                StringBuilder kept = new StringBuilder("-");
                for (int i = 1; i < a.length(); i++) {
                    char c = a.charAt(i);
                    if (c == 'u') {
                        kept.append(a, i, a.length());
                        valueNext = i == a.length() - 1;
                        break;
                    }
                    if (c != 'd') {
                        kept.append(c);
                    }
                }
                if (kept.length() > 1) {
                    out.add(kept.toString());
                }
            } else {
                out.add(a);
            }
        }
        return out;
    }

    private static String findSetsid() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : (path + ":/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "setsid"))) {
                return Path.of(dir, "setsid").toString();
            }
        }
        throw new FatalError("not supported: -d needs the setsid program (util-linux)");
    }
}
