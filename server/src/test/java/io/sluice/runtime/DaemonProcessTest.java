package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code sluice -d} end to end through the launcher: detach, pidfile, signals to the pidfile pid. */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DaemonProcessTest {
    @TempDir
    Path dir;

    private Path config(Path pidfile, Path logfile) throws Exception {
        Path ini = dir.resolve("sluice.ini");
        Files.writeString(ini, "[pgbouncer]\npidfile = " + pidfile + "\nlogfile = " + logfile + "\n");
        return ini;
    }

    private ProcessHandle startDaemon(Path ini, Path pidfile) throws Exception {
        try (ChildProcess parent = ChildProcess.viaLauncher(DaemonProbeMain.class.getName(), "-d", ini.toString())) {
            assertThat(parent.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(parent.drain()).isEmpty();
            assertThat(parent.process.exitValue()).isZero();
        }
        long pid = Long.parseLong(Files.readString(pidfile).strip());
        ProcessHandle daemon = ProcessHandle.of(pid).orElseThrow();
        // The pid in the pidfile is the launcher's (it relays signals), with the JVM as its child.
        assertThat(daemon.info().commandLine().orElse("")).contains("sluice");
        assertThat(daemon.children().count()).isEqualTo(1);
        return daemon;
    }

    @Test
    void detachesWritesPidfileAndQuitExitsAtOnce() throws Exception {
        Path pidfile = dir.resolve("sluice.pid");
        Path logfile = dir.resolve("sluice.log");
        ProcessHandle daemon = startDaemon(config(pidfile, logfile), pidfile);

        ChildProcess.kill("QUIT", daemon.pid());
        daemon.onExit().get(30, TimeUnit.SECONDS);
        assertThat(pidfile).doesNotExist();
        String log = Files.readString(logfile);
        assertThat(log).contains("[" + daemon.pid() + "] LOG process up: Sluice ");
        assertThat(log).contains("[" + daemon.pid() + "] LOG got SIGQUIT, fast exit");
    }

    @Test
    void termShutsTheDaemonDownAndSecondStartSeesNoStalePidfile() throws Exception {
        Path pidfile = dir.resolve("sluice.pid");
        Path logfile = dir.resolve("sluice.log");
        Path ini = config(pidfile, logfile);
        ProcessHandle daemon = startDaemon(ini, pidfile);

        // While it runs, a second -d is refused and leaves the pidfile alone.
        try (ChildProcess second = ChildProcess.viaLauncher(DaemonProbeMain.class.getName(), "-d", ini.toString())) {
            assertThat(second.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(second.process.exitValue()).isEqualTo(1);
            assertThat(second.drain()).anyMatch(l -> l.endsWith(
                    "FATAL pidfile '" + pidfile + "' exists, another instance running?"));
        }

        ChildProcess.kill("TERM", daemon.pid());
        daemon.onExit().get(30, TimeUnit.SECONDS);
        assertThat(pidfile).doesNotExist();
        assertThat(Files.readString(logfile))
                .contains("LOG got SIGTERM, shutting down, waiting for all clients disconnect");
    }
}
