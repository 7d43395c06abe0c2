package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.SluiceProcess;
import io.sluice.testkit.ThreadNice;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code -Dsluice.compiler.nice=N} on a started Sluice: its JIT compiler threads run at nice N
 * and every other thread keeps its nice value; without the option nothing is reniced. No
 * PostgreSQL is needed: nothing connects.
 */
class CompilerNiceIT {
    private static final Path JAR = Path.of("target", "sluice.jar");
    private static final String INI = "[databases]\npostgres = host=127.0.0.1 port=1\n[pgbouncer]\nauth_type = trust\n";

    @Test
    void theOptionRenicesTheCompilerThreadsAndNothingElse() throws IOException {
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx64m", "-Dsluice.compiler.nice=19")
                .args("-v").ini(INI).userlist("").start()) {
            Await.until(Duration.ofSeconds(10), () -> sluice.output().contains("compiler threads: nice 19 for threads"),
                    "the renice's DEBUG line");
            Map<String, Integer> nice = niceByThreadName(sluice.pid());
            assertThat(nice).containsEntry("C1 CompilerThre", 19).containsEntry("C2 CompilerThre", 19);
            nice.forEach((name, value) -> {
                if (!name.contains(" Compiler") && !name.equals("Sweeper thread")) {
                    assertThat(value).as(name).isEqualTo(ownNice());
                }
            });
        }
    }

    @Test
    void withoutTheOptionNoThreadIsReniced() throws IOException {
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx64m").args("-v").ini(INI).userlist("").start()) {
            assertThat(niceByThreadName(sluice.pid()).values()).containsOnly(ownNice());
            assertThat(sluice.output()).doesNotContain("compiler threads");
        }
    }

    /** Each thread's nice value by its name (a name held by several threads must agree). */
    private static Map<String, Integer> niceByThreadName(long pid) throws IOException {
        Map<String, Integer> byName = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                String name;
                int nice;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                    nice = ThreadNice.of(task.resolve("stat"));
                } catch (NoSuchFileException ended) {
                    continue; // a thread that ended while we looked (the renice's own, for one)
                }
                Integer before = byName.put(name, nice);
                assertThat(before == null || before == nice).as(name).isTrue();
            }
        }
        return byName;
    }

    /** This test's own nice value: what Sluice's threads inherit. */
    private static int ownNice() {
        try {
            return ThreadNice.of(Path.of("/proc/self/stat"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

}
