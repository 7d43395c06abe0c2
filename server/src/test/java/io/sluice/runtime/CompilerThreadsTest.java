package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.ThreadNice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which threads count as the compiler's, the property, and a real renice of this JVM's own compiler threads. */
class CompilerThreadsTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(CompilerThreads.NICE_PROPERTY);
    }

    @Test
    void picksTheCompilerAndSweeperThreadsByTheirCutNames(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "java");
        thread(tasks, "102", "C2 CompilerThre");
        thread(tasks, "103", "C1 CompilerThre");
        thread(tasks, "104", "Sweeper thread");
        thread(tasks, "105", "multiThreadIoEv");
        thread(tasks, "106", "JVMCI CompilerT");
        thread(tasks, "107", "VM Thread");
        Files.createDirectory(tasks.resolve("108")); // a thread that ended while the list was read: no comm
        assertThat(CompilerThreads.ids(tasks)).containsExactly("102", "103", "104", "106");
    }

    @Test
    void offUnlessThePropertyAsks() {
        assertThat(CompilerThreads.nice()).isZero();
        System.setProperty(CompilerThreads.NICE_PROPERTY, "19");
        assertThat(CompilerThreads.nice()).isEqualTo(19);
        System.setProperty(CompilerThreads.NICE_PROPERTY, "40");
        assertThat(CompilerThreads.nice()).isEqualTo(19); // the most renice takes
    }

    @Test
    void renicesThisJvmsCompilerThreadsAndNothingElse() throws IOException {
        Path self = Path.of("/proc/self/task");
        String compiler = CompilerThreads.ids(self).get(0);
        String me = Long.toString(callingThreadId());
        // one step above what it has now: a process that is not root may raise its nice value, never lower it
        int target = Math.min(19, nice(self, compiler) + 1);
        int mine = nice(self, me);

        String outcome = CompilerThreads.renice(self, target);

        assertThat(outcome).startsWith("nice " + target + " for threads ");
        assertThat(nice(self, compiler)).isEqualTo(target);
        assertThat(nice(self, me)).isEqualTo(mine);
    }

    @Test
    void noTaskDirectorySaysSo(@TempDir Path dir) {
        assertThat(CompilerThreads.renice(dir.resolve("missing"), 19)).startsWith("cannot list threads: ");
        assertThat(CompilerThreads.renice(dir, 19)).isEqualTo("none found");
    }

    private static void thread(Path tasks, String id, String comm) throws IOException {
        Files.createDirectory(tasks.resolve(id));
        Files.writeString(tasks.resolve(id).resolve("comm"), comm + "\n");
    }

    /** The calling thread's task id (/proc/thread-self is /proc/PID/task/TID). */
    private static long callingThreadId() throws IOException {
        return Long.parseLong(Path.of("/proc/thread-self").toRealPath().getFileName().toString());
    }

    private static int nice(Path tasks, String id) throws IOException {
        return ThreadNice.of(tasks.resolve(id).resolve("stat"));
    }
}
