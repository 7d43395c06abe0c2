package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real signals against a child JVM started through the {@code sluice} launcher, signalled at
 * the launcher's pid (the one the pidfile holds). Also pins down the -Xrs facts the launcher
 * design rests on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SignalProcessTest {
    private static final String PROBE = SignalProbeMain.class.getName();

    @Test
    void hupUsr1Usr2AndTwoTermsFollowPgBouncer() throws Exception {
        try (ChildProcess child = ChildProcess.viaLauncher(PROBE)) {
            long pid = child.process.pid();
            child.awaitLine("ready");

            ChildProcess.kill("HUP", pid);
            child.awaitLine("event reload");
            ChildProcess.kill("USR1", pid);
            child.awaitLine("event pause");
            ChildProcess.kill("USR2", pid);
            child.awaitLine("event resume");
            ChildProcess.kill("TERM", pid);
            child.awaitLine("event shutdownWaitForClients");
            ChildProcess.kill("TERM", pid);
            child.awaitLine("got SIGTERM while shutting down, fast exit");

            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(child.process.exitValue()).isZero();
            List<String> out = child.drain();
            assertThat(out).anyMatch(l -> l.matches(
                    "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} UTC \\[" + pid + "] LOG got SIGHUP, re-reading config"));
            assertThat(out).anyMatch(l -> l.endsWith("LOG got SIGUSR1, pausing all activity"));
            assertThat(out).anyMatch(l -> l.endsWith("LOG got SIGUSR2, continuing from PAUSE"));
            assertThat(out).anyMatch(l -> l.endsWith("LOG got SIGTERM, shutting down, waiting for all clients disconnect"));
            assertThat(out).anyMatch(l -> l.endsWith("LOG got SIGTERM while shutting down, fast exit"));
        }
    }

    @Test
    void intThenUsr2WhileShuttingDownThenInt() throws Exception {
        try (ChildProcess child = ChildProcess.viaLauncher(PROBE)) {
            long pid = child.process.pid();
            child.awaitLine("ready");
            ChildProcess.kill("INT", pid);
            child.awaitLine("event shutdownWaitForServers");
            ChildProcess.kill("USR2", pid);
            child.awaitLine("got SIGUSR2 while shutting down, ignoring");
            ChildProcess.kill("INT", pid);
            child.awaitLine("got SIGINT while shutting down, fast exit");
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(child.process.exitValue()).isZero();
            assertThat(child.drain()).noneMatch(l -> l.contains("event shutdownNow"));
        }
    }

    @Test
    void quitExitsImmediately() throws Exception {
        try (ChildProcess child = ChildProcess.viaLauncher(PROBE)) {
            long pid = child.process.pid();
            child.awaitLine("ready");
            ChildProcess.kill("QUIT", pid);
            child.awaitLine("got SIGQUIT, fast exit");
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(child.process.exitValue()).isZero();
            assertThat(child.drain()).noneMatch(l -> l.contains("event"));
        }
    }

    /**
     * SIGURG (sluice-handover): the launcher starts the same command line again (quoting kept)
     * with SLUICE_HANDOVER_FROM=its pid and without what the wrapper loaded from its defaults
     * file; a second SIGURG while that successor runs starts nothing; the old one keeps serving.
     */
    @Test
    void urgStartsOneSuccessorWithTheOriginalArguments() throws Exception {
        try (ChildProcess child = ChildProcess.viaLauncher(Map.of("SLUICE_TEST_DEFAULT", "loaded",
                "SLUICE_DEFAULTS_VARS", "SLUICE_TEST_DEFAULT "), PROBE, "it's", "a b", "")) {
            long pid = child.process.pid();
            assertThat(child.awaitLine("args ")).isEqualTo("args [it's, a b, ] handover-from null default loaded");
            child.awaitLine("ready");
            ChildProcess.kill("URG", pid);
            assertThat(child.awaitLine("args ")).isEqualTo("args [it's, a b, ] handover-from " + pid + " default null");
            long successorJvm = Long.parseLong(child.awaitLine("ready ").substring("ready ".length()));
            ProcessHandle successor = ProcessHandle.of(successorJvm).flatMap(ProcessHandle::parent).orElseThrow();
            try {
                ChildProcess.kill("URG", pid);
                child.awaitLine("got SIGURG, but successor process");
                assertThat(child.process.isAlive()).isTrue();
                ChildProcess.kill("TERM", pid);
                child.awaitLine("event shutdownWaitForClients");
                ChildProcess.kill("TERM", pid);
                assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
                assertThat(successor.isAlive()).as("the successor outlives the old launcher").isTrue();
            } finally {
                successor.descendants().forEach(ProcessHandle::destroyForcibly);
                successor.destroyForcibly();
            }
        }
    }

    /** The experiment behind the launcher: under -Xrs Java may not handle SIGHUP at all. */
    @Test
    void underXrsTheJvmRefusesHup() throws Exception {
        try (ChildProcess child = ChildProcess.start(List.of("env", "--default-signal=QUIT", ChildProcess.javaBinary(), "-Xrs", "-cp",
                System.getProperty("java.class.path"), PROBE, "raw-hup"), Map.of())) {
            assertThat(child.awaitLine("raw-hup")).isEqualTo("raw-hup refused: Signal already used by VM or OS: SIGHUP");
        }
    }

    /** ... and SIGQUIT keeps its default action there: death by signal 3 (exit value 131). */
    @Test
    void underXrsQuitKillsTheJvm() throws Exception {
        try (ChildProcess child = ChildProcess.start(List.of("env", "--default-signal=QUIT", ChildProcess.javaBinary(), "-Xrs", "-cp",
                System.getProperty("java.class.path"), PROBE, "raw-hup"), Map.of())) {
            child.awaitLine("ready");
            ChildProcess.kill("QUIT", child.process.pid());
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(child.process.exitValue()).isEqualTo(128 + 3);
        }
    }

    /**
     * HotSpot samples threads for JDK Flight Recorder by signalling them; on Linux that signal is
     * SIGUSR2 unless moved, and Sluice's RESUME handler took every sample for a RESUME. Through
     * the launcher, recording a paused process takes samples and resumes nothing.
     */
    @Test
    void flightRecorderSamplingIsNoResume(@TempDir Path dir) throws Exception {
        try (ChildProcess child = ChildProcess.viaLauncher(PROBE, "busy")) {
            long launcher = child.process.pid();
            String jvm = child.awaitLine("ready ").substring("ready ".length());
            ChildProcess.kill("USR1", launcher);
            child.awaitLine("event pause");

            jcmd(jvm, "JFR.start", "name=probe");
            Path dump = dir.resolve("probe.jfr");
            long samples = 0;
            // each dump is a round trip to the JVM; the recording samples every 20 ms or so
            for (int i = 0; i < 50 && samples == 0; i++) {
                jcmd(jvm, "JFR.dump", "name=probe", "filename=" + dump);
                samples = RecordingFile.readAllEvents(dump).stream()
                        .filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample")).count();
            }
            assertThat(samples).as("execution samples recorded").isPositive();

            ChildProcess.kill("TERM", launcher);
            child.awaitLine("event shutdownWaitForClients");
            assertThat(child.lines).noneMatch(l -> l.contains("event resume") || l.contains("SIGUSR2"));
            ChildProcess.kill("TERM", launcher);
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static void jcmd(String pid, String... command) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), pid));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("jcmd %s: %s", String.join(" ", command), out).isZero();
    }

    /** Without the launcher, a JVM given -Xrs is refused with a reason instead of ignoring signals. */
    @Test
    void signalsRefuseXrs() throws Exception {
        try (ChildProcess child = ChildProcess.start(List.of("env", "--default-signal=QUIT", ChildProcess.javaBinary(), "-Xrs", "-cp",
                System.getProperty("java.class.path"), PROBE), Map.of())) {
            assertThat(child.process.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(child.drain()).anyMatch(l -> l.contains("started with -Xrs"));
            assertThat(child.process.exitValue()).isNotZero();
        }
    }
}
