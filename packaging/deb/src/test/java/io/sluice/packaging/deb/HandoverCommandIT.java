package io.sluice.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.sluice.testkit.Await;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sluice-handover's refusals and failures, which decide whether a package upgrade restarts
 * (exit 2, 3, 4) or leaves the old process serving (exit 1): run on this machine through the
 * config's pidfile against stand-ins for the launcher. DebInstallIT covers the success.
 */
class HandoverCommandIT {
    @TempDir
    static Path dir;

    private static Path command;

    @BeforeAll
    static void setUp() {
        assumeFalse(Files.isDirectory(Path.of("/run/systemd/system")), "systemd runs here: the command would ask it");
        command = Built.STAGING.resolve("sluice-handover");
    }

    @Test
    void withoutSoReuseportNothingIsSignalled() throws IOException {
        ProcessResult r = run(config("so_reuseport = 0\n"));
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("not supported without so_reuseport = 1");
    }

    @Test
    void nothingRunningIsExit3() throws IOException {
        ProcessResult r = run(config("so_reuseport = 1\n"));
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.stderr()).contains("Sluice is not running");
    }

    @Test
    void aProcessThatIsNoSluiceLauncherGetsNoSignal() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(dir.resolve("p.pid"), sleep.pid() + "\n");
            ProcessResult r = run(config("so_reuseport = 1\n"));
            assertThat(r.exitCode()).isEqualTo(3);
            assertThat(r.stderr()).contains("is not the Sluice launcher; nothing signalled");
            assertThat(sleep.isAlive()).isTrue();
        } finally {
            sleep.destroyForcibly();
        }
    }

    /** A launcher from before sluice-handover ignores SIGURG: exit 4, so the upgrade restarts. */
    @Test
    void aLauncherThatIgnoresUrgIsExit4() throws Exception {
        Process launcher = fakeLauncher("");
        try {
            ProcessResult r = run(config("so_reuseport = 1\n"));
            assertThat(r.exitCode()).as(r.describe()).isEqualTo(4);
            assertThat(r.stderr()).contains("cannot hand over; nothing signalled");
        } finally {
            launcher.destroyForcibly();
        }
    }

    /** The successor never takes over (e.g. a broken config): exit 1 and the old one still serves. */
    @Test
    void noSuccessorWithinTheTimeoutIsExit1AndTheOldProcessStays() throws Exception {
        Process launcher = fakeLauncher("trap 'echo got URG' URG\n");
        try {
            Path ini = config("so_reuseport = 1\n");
            ProcessResult r = ProcessRunner.of("sh", command.toString(), "--config", ini.toString(), "--timeout", "1")
                    .timeout(Duration.ofSeconds(30)).run();
            assertThat(r.exitCode()).as(r.describe()).isEqualTo(1);
            assertThat(r.stdout()).contains("process " + launcher.pid() + " is starting its successor");
            assertThat(r.stderr()).contains("no successor took over within 1 s; process " + launcher.pid() + " still serves")
                    .contains("systemctl restart pgbouncer");
            assertThat(launcher.isAlive()).isTrue();
        } finally {
            launcher.destroyForcibly();
            launcher.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** "sh .../bin/sluice", as the launcher runs, writing its pid to the pidfile once its traps are set. */
    private static Process fakeLauncher(String traps) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path script = bin.resolve("sluice");
        Path pidfile = dir.resolve("p.pid");
        Files.deleteIfExists(pidfile);
        Files.writeString(script, traps + "echo $$ > " + pidfile + "\nwhile :; do sleep 1; done\n");
        Process p = new ProcessBuilder("sh", script.toString()).start();
        assertThat(Await.poll(Duration.ofSeconds(10), () -> read(pidfile).strip().equals(Long.toString(p.pid()))))
                .as("the stand-in wrote its pidfile").isTrue();
        return p;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }

    private static Path config(String settings) throws IOException {
        Path ini = dir.resolve("pgbouncer.ini");
        Files.writeString(ini, "[databases]\nso_reuseport = 1\n[pgbouncer]\npidfile = " + dir.resolve("p.pid") + "\n"
                + settings);
        return ini;
    }

    private static ProcessResult run(Path ini) {
        return ProcessRunner.of("sh", command.toString(), "--config", ini.toString()).timeout(Duration.ofSeconds(30)).run();
    }
}
