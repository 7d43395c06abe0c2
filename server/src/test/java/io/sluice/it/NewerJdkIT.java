package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.testkit.Await;
import io.sluice.testkit.SluiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Sluice on a JDK newer than the 17 it is built for (an operator's own JAVA_HOME): since JDK 22
 * the JVM warns on stderr at every start when code loads a native library without native access
 * granted, as Netty does for its transport. The jar's manifest grants it, so a start stays quiet.
 * Runs where a JDK 22 or later is installed under /usr/lib/jvm (this project's machines have
 * Temurin's beside Debian's 17).
 */
class NewerJdkIT {
    private static final Path JAR = Path.of("target", "sluice.jar").toAbsolutePath();
    private static final Pattern FEATURE = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    @Test
    void startsWithoutTheNativeAccessWarning() throws IOException {
        Optional<Path> home = newestJava();
        assumeTrue(home.isPresent() && feature(home.get()) >= 22, "no JDK 22 or later under /usr/lib/jvm");
        try (SluiceProcess sluice = new SluiceProcess(JAR).java(home.get().resolve("bin/java"))
                .jvmArgs("-Xmx64m", "-XX:+UseSerialGC").start()) {
            // the transport (and its native library) is chosen before the listeners open; the
            // line that says they are open names it
            Await.until(Duration.ofSeconds(30), () -> sluice.output().contains("process up"), "the process up line");
            assertThat(sluice.output()).containsPattern("process up: .*\\((io_uring|epoll)\\)")
                    .doesNotContain("WARNING");
        }
    }

    private static Optional<Path> newestJava() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin/java")) && feature(h) > 0)
                    .max(Comparator.comparingInt(NewerJdkIT::feature));
        }
    }

    /** The JDK's feature release from its {@code release} file; 0 when it has none. */
    private static int feature(Path home) {
        try {
            Matcher m = FEATURE.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
