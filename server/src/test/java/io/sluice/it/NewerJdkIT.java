package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.testkit.FreePorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void startsWithoutTheNativeAccessWarning(@TempDir Path dir) throws Exception {
        Optional<Path> home = newestJava();
        assumeTrue(home.isPresent() && feature(home.get()) >= 22, "no JDK 22 or later under /usr/lib/jvm");
        Path ini = dir.resolve("pgbouncer.ini");
        Files.writeString(ini, "[databases]\n[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = " + FreePorts.next() + "\n"
                + "unix_socket_dir =\nauth_type = trust\nauth_file = " + dir.resolve("userlist.txt") + "\n");
        Files.writeString(dir.resolve("userlist.txt"), "");

        Process p = new ProcessBuilder(home.get().resolve("bin/java").toString(), "-Xmx64m", "-XX:+UseSerialGC",
                "-jar", JAR.toString(), ini.toString()).redirectErrorStream(true).start();
        try {
            // everything the JVM and Sluice print up to the line that says the listeners are open:
            // the transport (and its native library) is chosen before that
            List<String> lines = new ArrayList<>();
            CompletableFuture<Boolean> up = CompletableFuture.supplyAsync(() -> readUntilUp(p, lines));
            assertThat(up.get(60, TimeUnit.SECONDS)).as("started: %s", lines).isTrue();
            assertThat(lines).anyMatch(l -> l.contains("(io_uring)") || l.contains("(epoll)"))
                    .noneMatch(l -> l.contains("WARNING"));
        } finally {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static boolean readUntilUp(Process p, List<String> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                synchronized (lines) {
                    lines.add(line);
                }
                if (line.contains("process up")) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
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
