package io.sluice.runtime;

import io.sluice.log.Log;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * With {@code -Dsluice.compiler.nice=N} (1 to 19), runs the JIT compiler's threads at nice N: on
 * a machine whose cores PostgreSQL and the clients share, the compiler then takes a core only
 * when they leave one idle. That shortens bursts on a process that is still compiling (the first
 * herd after a start) and lengthens saturated load while it compiles (the compiled code comes
 * later), so it is off by default; the figures are in packaging/README.md ("The JIT compiler's
 * priority").
 *
 * <p>HotSpot does this itself only with {@code -XX:ThreadPriorityPolicy=1}, which warns on every
 * start as any user but root, and Java has no setpriority: so renice(1) does it, once at start.
 * Compiler threads the JVM adds later are started by a compiler thread and inherit its nice value.
 */
final class CompilerThreads {
    static final String NICE_PROPERTY = "sluice.compiler.nice";
    private static final long RENICE_TIMEOUT_SECONDS = 5;

    private CompilerThreads() {
    }

    /** The nice value asked for; 0 (the default, or less) leaves the compiler's threads alone. */
    static int nice() {
        return Math.min(19, Integer.getInteger(NICE_PROPERTY, 0));
    }

    /**
     * Starts the renice in the background, so the listeners do not wait for it; what went wrong is
     * a debug line (the threads then keep the JVM's priority, as they always did).
     */
    static void lowerPriority(Log log) {
        int nice = nice();
        if (nice <= 0) {
            return;
        }
        Thread t = new Thread(() -> {
            String outcome = renice(Path.of("/proc/self/task"), nice);
            log.debug(() -> "compiler threads: " + outcome);
        }, "sluice-compiler-nice");
        t.setDaemon(true);
        t.start();
    }

    /** Renices the compiler threads found under {@code taskDir}; says what it did. */
    static String renice(Path taskDir, int nice) {
        List<String> ids;
        try {
            ids = ids(taskDir);
        } catch (IOException e) {
            return "cannot list threads: " + e.getMessage();
        }
        if (ids.isEmpty()) {
            return "none found";
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        command.addAll(ids);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(RENICE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "renice did not finish";
            }
            return p.exitValue() == 0 ? "nice " + nice + " for threads " + ids : "renice exited with " + p.exitValue();
        } catch (IOException e) {
            return "cannot run renice: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * The ids of the threads under {@code taskDir} (a /proc/PID/task) that compile: HotSpot's
     * "C1 CompilerThreadN", "C2 CompilerThreadN" and "JVMCI CompilerThreadN" (names cut to 15
     * characters there), and JDK 17's code-cache "Sweeper thread", which works for the compiler.
     */
    static List<String> ids(Path taskDir) throws IOException {
        List<String> ids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException gone) {
                    continue; // the thread ended while we looked
                }
                if (name.contains(" Compiler") || name.equals("Sweeper thread")) {
                    ids.add(task.getFileName().toString());
                }
            }
        }
        ids.sort(null);
        return ids;
    }
}
