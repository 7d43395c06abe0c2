package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The child-JVM fixture, driven with {@link FakeSluiceServer} packed as the server jar. */
class SluiceProcessTest {
    @TempDir
    static Path jarDir;
    static Path jar;

    @BeforeAll
    static void packFakeServer() throws IOException {
        jar = jarDir.resolve("sluice.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeSluiceServer.class.getName());
        String entry = FakeSluiceServer.class.getName().replace('.', '/') + ".class";
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest);
                InputStream classBytes = FakeSluiceServer.class.getResourceAsStream("/" + entry)) {
            out.putNextEntry(new JarEntry(entry));
            classBytes.transferTo(out);
            out.closeEntry();
        }
    }

    @Test
    void startsTheJarOnAForcedPortAndStopsOnSignal() throws IOException {
        SluiceProcess sluice = new SluiceProcess(jar)
                .ini("[databases]\n[pgbouncer]\nlisten_port = 1\nlisten_addr = 0.0.0.0\n")
                .userlist(Userlist.entry("u", "p"))
                .jvmArgs("-Xmx64m");
        try (sluice) {
            sluice.start();
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(sluice.host(), sluice.port()), 5_000);
            }
            assertThat(sluice.isAlive()).isTrue();
            Await.until(Duration.ofSeconds(10), () -> sluice.output().contains("listening"), "the listening line");
            assertThat(sluice.output()).contains("fake sluice listening on 127.0.0.1:" + sluice.port()
                    + " cwd=" + sluice.dir());
            assertThat(Files.readString(sluice.iniFile())).contains("auth_file = " + sluice.dir().resolve("userlist.txt"));
            assertThat(ProcessHandle.of(sluice.pid()).flatMap(h -> h.info().command()))
                    .hasValueSatisfying(cmd -> assertThat(cmd).endsWith("java"));

            sluice.signal("TERM");
            assertThat(sluice.waitFor(Duration.ofSeconds(30))).isTrue();
            assertThat(sluice.exitCode()).isEqualTo(128 + 15);
            Path dir = sluice.dir();
            sluice.stop();
            assertThat(dir).doesNotExist();
            assertThat(sluice.output()).contains("fake sluice listening");
        }
    }

    @Test
    void launchLetsATestWatchTheServerExit() {
        try (SluiceProcess sluice = new SluiceProcess(jar).ini("[pgbouncer]\nfake_exit = 3\n").launch()) {
            assertThat(sluice.waitFor(Duration.ofSeconds(30))).isTrue();
            assertThat(sluice.exitCode()).isEqualTo(3);
            assertThat(sluice.output()).contains("fake sluice: exiting with 3");
        }
    }

    @Test
    void startFailsWithTheOutputWhenTheServerExits() {
        SluiceProcess sluice = new SluiceProcess(jar).ini("[pgbouncer]\nfake_exit = 4\n");
        assertThatThrownBy(sluice::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sluice exited with code 4")
                .hasMessageContaining("fake sluice: exiting with 4");
        sluice.stop();
    }

    @Test
    void aMissingJarIsAClearError() {
        assertThatThrownBy(() -> new SluiceProcess(jarDir.resolve("nope.jar")).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Sluice jar not found");
    }
}
