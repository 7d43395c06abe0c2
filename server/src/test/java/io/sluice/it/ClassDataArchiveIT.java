package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's class-data archive (step 13, a faster start): the first run writes one for
 * this JVM and this jar when it exits, later runs map Sluice's classes from it, and another jar
 * gets an archive of its own that replaces the old one. Nothing of it reaches the output.
 */
class ClassDataArchiveIT {
    private static final Path LAUNCHER = Path.of("src/main/dist/bin/sluice").toAbsolutePath();
    private static final Path JAR = Path.of("target", "sluice.jar").toAbsolutePath();

    @TempDir
    Path cacheDir;

    @Test
    void theFirstRunWritesTheArchiveAndTheNextLoadsSluicesClassesFromIt() throws IOException {
        ProcessResult first = version(JAR, "");
        assertThat(first.stdout()).startsWith("Sluice ").doesNotContain("cds", "warning");
        assertThat(first.stderr()).isBlank();
        List<Path> archives = files();
        assertThat(archives).singleElement().satisfies(p -> assertThat(p.getFileName().toString()).matches("sluice-\\d+\\.jsa"));

        // -Xlog:class+load names where each class came from: "shared objects file (top)" is the
        // archive written above (the JDK's own is the base layer)
        ProcessResult second = version(JAR, "-Xlog:class+load=info:stdout");
        assertThat(second.stdout()).containsPattern("io\\.sluice\\.runtime\\.Main source: shared objects file \\(top\\)");
        assertThat(files()).isEqualTo(archives);
    }

    @Test
    void anotherJarGetsItsOwnArchiveAndTheOldOneIsRemoved(@TempDir Path other) throws IOException {
        version(JAR, "");
        List<Path> before = files();
        Path copy = Files.copy(JAR, other.resolve("sluice.jar"));

        ProcessResult run = version(copy, "");
        assertThat(run.stderr()).isBlank();
        List<Path> after = files();
        assertThat(after).hasSize(1).doesNotContainAnyElementsOf(before);
    }

    @Test
    void optionsThatChooseTheirOwnArchiveAreLeftAlone() throws IOException {
        ProcessResult run = version(JAR, "-Xshare:off");
        assertThat(run.stdout()).startsWith("Sluice ");
        assertThat(files()).isEmpty();
    }

    private ProcessResult version(Path jar, String javaOpts) {
        return ProcessRunner.of("/bin/sh", LAUNCHER.toString(), "--version")
                .env("SLUICE_JAR", jar.toString())
                .env("SLUICE_CDS_DIR", cacheDir.toString())
                .env("JAVA_OPTS", "-Xmx64m -XX:+UseSerialGC " + javaOpts)
                .run().requireSuccess();
    }

    /** Every file in the cache directory, temporary ones included. */
    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(cacheDir)) {
            return s.sorted().toList();
        }
    }
}
