package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A handover successor's Main: the pidfile holding the old launcher's pid is taken over, systemd
 * hears READY=1 with MAINPID=, and only then does the old process get SIGTERM.
 */
class HandoverTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.systemUTC(), 7, new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void successorTakesThePidfileNotifiesMainPidThenTermsTheOldProcess() throws Exception {
        Process old = new ProcessBuilder("sleep", "60").start(); // stands in for the old launcher
        try {
            Path pid = dir.resolve("p.pid");
            Files.writeString(pid, old.pid() + "\n");
            long self = ProcessHandle.current().pid();
            assertThat(Handover.from(Map.of(Handover.VARIABLE, Long.toString(old.pid())))).isPresent();
            FakeLifecycle lifecycle = new FakeLifecycle();
            List<String> events = new CopyOnWriteArrayList<>();
            lifecycle.onServing = () -> {
                events.add("serving, pidfile " + Pidfile.parse(read(pid)) + ", old alive " + old.isAlive());
                lifecycle.terminated.complete(0);
            };
            Main main = new Main((config, opts) -> lifecycle, null, p -> new DaemonConfig(pid, null, false))
                    .withLog(log)
                    .withStreams(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                            new PrintStream(err, true, StandardCharsets.UTF_8))
                    .withLauncher(new LauncherEnv(Map.of(), ProcessHandle.current()))
                    .withoutSignalHandlers()
                    .withHandover(Optional.of(new Handover(old.pid())))
                    .withSystemd(new SystemdNotify("/run/test", (address, datagram) -> events.add(
                            new String(datagram, StandardCharsets.UTF_8) + "pidfile " + Pidfile.parse(read(pid))
                                    + ", old alive " + old.isAlive())));
            assertThat(main.run(new String[] {"x.ini"})).isZero();
            assertThat(events.get(0)).isEqualTo("READY=1\nMAINPID=" + self + "\nSTATUS=accepting connections\n"
                    + "pidfile " + self + ", old alive true");
            assertThat(old.waitFor(20, TimeUnit.SECONDS)).as("the old process got SIGTERM").isTrue();
            assertThat(old.exitValue()).isEqualTo(128 + 15);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("LOG taking over from process " + old.pid());
            assertThat(pid).as("ours, removed at exit").doesNotExist();
        } finally {
            old.destroyForcibly();
        }
    }

    @Test
    void aDeadOrMissingPidIsNoHandover() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        assertThat(Handover.from(Map.of(Handover.VARIABLE, Long.toString(gone.pid())))).isEmpty();
        assertThat(Handover.from(Map.of(Handover.VARIABLE, ""))).isEmpty();
        assertThat(Handover.from(Map.of())).isEmpty();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
