package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Main in-process, with fake starters and no JVM signal handlers. */
class MainTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    private final FakeLifecycle lifecycle = new FakeLifecycle();
    private final AtomicReference<Path> startedWith = new AtomicReference<>();
    private DaemonConfig daemonConfig = DaemonConfig.NONE;

    private Main main(ServerStarter starter, QuickStarter quick) {
        return new Main(starter, quick, p -> daemonConfig)
                .withLog(new Log(Clock.systemUTC(), 99, errStream))
                .withStreams(new PrintStream(out, true, StandardCharsets.UTF_8), errStream)
                .withLauncher(new LauncherEnv(Map.of(), ProcessHandle.current()))
                .withoutSignalHandlers();
    }

    private Main main() {
        return main((config, opts) -> {
            startedWith.set(config);
            return lifecycle;
        }, opts -> lifecycle);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void daemonNeedsPidfile() {
        assertThat(main().run(new String[] {"-d", "x.ini"})).isEqualTo(1);
        // Main logs with the pid operators signal: ours here, as no launcher is our parent.
        assertThat(err()).endsWith(" [" + ProcessHandle.current().pid() + "] FATAL daemon needs pidfile configured\n");
        assertThat(startedWith.get()).isNull();
    }

    @Test
    void daemonNeedsLogfileOrSyslog() {
        daemonConfig = new DaemonConfig(dir.resolve("p.pid"), null, false);
        assertThat(main().run(new String[] {"--daemon", "x.ini"})).isEqualTo(1);
        assertThat(err()).contains("FATAL daemon needs logfile configured");
    }

    @Test
    void quickStartWithDaemonHasNoPidfile() {
        assertThat(main().run(new String[] {"-d"})).isEqualTo(1);
        assertThat(err()).contains("FATAL daemon needs pidfile configured");
    }

    @Test
    void daemonRefusesLivePidfile() throws Exception {
        Path pid = dir.resolve("p.pid");
        Files.writeString(pid, ProcessHandle.current().pid() + "\n");
        daemonConfig = new DaemonConfig(pid, dir.resolve("l.log"), false);
        assertThat(main().run(new String[] {"-d", "x.ini"})).isEqualTo(1);
        assertThat(err()).contains("FATAL pidfile '" + pid + "' exists, another instance running?");
    }

    @Test
    void servesWritesPidfileLogsToFileAndCleansUp() throws Exception {
        Path pid = dir.resolve("p.pid");
        Path logfile = dir.resolve("sluice.log");
        daemonConfig = new DaemonConfig(pid, logfile, false);
        AtomicReference<String> pidWhileServing = new AtomicReference<>();
        lifecycle.onServing = () -> {
            pidWhileServing.set(readOrNull(pid));
            lifecycle.terminated.complete(3);
        };
        assertThat(main().run(new String[] {"-q", "-v", "conf/x.ini"})).isEqualTo(3);
        assertThat(startedWith.get()).isEqualTo(Path.of("conf/x.ini"));
        assertThat(pidWhileServing.get()).isEqualTo(ProcessHandle.current().pid() + "\n");
        assertThat(pid).doesNotExist();
        assertThat(err()).isEmpty(); // -q
        assertThat(Files.readString(logfile)).contains("LOG process up: Sluice ");
    }

    @Test
    void noConfigQuickStarts() {
        lifecycle.terminated.complete(0);
        AtomicReference<CliOptions> quickOpts = new AtomicReference<>();
        Main m = main((c, o) -> {
            throw new AssertionError("not this one");
        }, opts -> {
            quickOpts.set(opts);
            return lifecycle;
        });
        assertThat(m.run(new String[] {"-v"})).isZero();
        assertThat(quickOpts.get().verbose()).isEqualTo(1);
    }

    @Test
    void starterFailureIsFatalExit1() {
        Main m = main((c, o) -> {
            throw new IllegalStateException("cannot load config file");
        }, null);
        assertThat(m.run(new String[] {"x.ini"})).isEqualTo(1);
        assertThat(err()).contains("FATAL cannot load config file");
    }

    @Test
    void missingImplementationsSayNotSupported() {
        assertThat(main(null, null).run(new String[] {"x.ini"})).isEqualTo(1);
        assertThat(err()).contains("FATAL not supported: no ServerStarter implementation");
        assertThat(main(null, null).run(new String[0])).isEqualTo(1);
        assertThat(err()).contains("FATAL not supported: no config file given and no quick start available");
    }

    @Test
    void userMustAlreadyBeSwitchedByTheLauncher() {
        lifecycle.terminated.complete(0);
        assertThat(main().run(new String[] {"-u", System.getProperty("user.name"), "x.ini"})).isZero();
        assertThat(main().run(new String[] {"-u", "no-such-sluice-user", "x.ini"})).isEqualTo(1);
        assertThat(err()).contains(
                "FATAL failed to assume identity of user 'no-such-sluice-user': Operation not permitted");
    }

    @Test
    void theConfigsUserKeyIsCheckedAsMinusUAndMinusUWins() {
        lifecycle.terminated.complete(0);
        daemonConfig = new DaemonConfig(null, null, false, "other-sluice-user");
        assertThat(main().run(new String[] {"x.ini"})).isEqualTo(1);
        assertThat(err()).contains("FATAL failed to assume identity of user 'other-sluice-user': Operation not permitted");
        assertThat(main().run(new String[] {"-u", System.getProperty("user.name"), "x.ini"})).isZero();
    }

    @Test
    void usageErrorsExit1AndHelpExits0() {
        assertThat(main().run(new String[] {"--nope"})).isEqualTo(1);
        assertThat(main().run(new String[] {"-R", "x.ini"})).isEqualTo(1);
        assertThat(main().run(new String[] {"-h"})).isZero();
        assertThat(startedWith.get()).isNull();
    }

    private static String readOrNull(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return null;
        }
    }
}
