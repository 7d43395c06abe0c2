package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The JVM options the launcher starts Sluice with: its own when JAVA_OPTS is unset, the
 * operator's alone when it is set. Read back from the JVM itself
 * ({@code -XX:+PrintFlagsFinal} through JAVA_TOOL_OPTIONS, which the launcher leaves alone).
 */
class LauncherJvmOptionsIT {
    private static final Path LAUNCHER = Path.of("src/main/dist/bin/sluice").toAbsolutePath();
    private static final Path JAR = Path.of("target", "sluice.jar").toAbsolutePath();

    @Test
    void withoutJavaOptsTheJvmRunsWithTheLaunchersOptions() {
        String flags = flags(null);
        assertThat(flags).containsPattern("\\bUseParallelGC\\s+= true\\b")
                // one GC thread, a young generation of at most 16 MiB (packaging/README.md)
                .containsPattern("\\bParallelGCThreads\\s+= 1\\b")
                .containsPattern("\\bMaxNewSize\\s+= 16777216\\b")
                .containsPattern("\\bMaxHeapSize\\s+= 268435456\\b")
                // C2 compiles not-yet-taken branches as code, not traps (packaging/README.md)
                .containsPattern("\\bPerMethodTrapLimit\\s+= 0\\b");
    }

    @Test
    void javaOptsReplaceTheLaunchersOptions() {
        String flags = flags("-Xmx64m");
        assertThat(flags).containsPattern("\\bMaxHeapSize\\s+= 67108864\\b")
                .containsPattern("\\bPerMethodTrapLimit\\s+= 100\\b");
    }

    /** The JVM's final flags on a {@code --version} run; {@code javaOpts} null unsets it. */
    private static String flags(String javaOpts) {
        ProcessResult run = ProcessRunner.of("/bin/sh", LAUNCHER.toString(), "--version")
                .env("SLUICE_JAR", JAR.toString())
                .env("JAVA_OPTS", javaOpts)
                .env("SLUICE_CDS_DIR", null)
                .env("CACHE_DIRECTORY", null)
                .env("JAVA_TOOL_OPTIONS", "-XX:+PrintFlagsFinal")
                .run().requireSuccess();
        assertThat(run.stdout()).contains("Sluice ");
        return run.stdout();
    }
}
