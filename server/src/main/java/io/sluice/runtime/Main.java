package io.sluice.runtime;

import io.netty.util.ResourceLeakDetector;
import io.sluice.config.FileErrors;
import io.sluice.log.Log;
import io.sluice.tls.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Entry point: parses PgBouncer's command line, checks {@code -u}, handles {@code -d}, the
 * pidfile and signals, starts the server through a {@link ServerStarter} (or a
 * {@link QuickStarter} when no config file is given) and exits with the code the server's
 * {@link Lifecycle#terminated()} yields. Startup failures are one FATAL line and exit 1.
 *
 * <p>Threading: {@link #run} runs on the main thread and blocks until the server terminates.
 */
public final class Main {
    private final ServerStarter starter;
    private final QuickStarter quickStarter;
    private final Function<Path, DaemonConfig> daemonConfig;
    private Log log = Log.global();
    private PrintStream out = System.out;
    private PrintStream err = System.err;
    private LauncherEnv launcher = LauncherEnv.current();
    private boolean installSignals = true;
    private IntConsumer halt = code -> Runtime.getRuntime().halt(code);
    private Duration daemonTimeout = Duration.ofSeconds(30);
    private SystemdNotify systemd = SystemdNotify.fromEnvironment();
    private Optional<Handover> handover = Handover.from(System.getenv());

    /**
     * @param starter starts from a config file; null if none is available
     * @param quickStarter starts without a config file; null if none is available
     * @param daemonConfig reads pidfile/logfile/syslog from the config file
     */
    public Main(ServerStarter starter, QuickStarter quickStarter, Function<Path, DaemonConfig> daemonConfig) {
        this.starter = starter;
        this.quickStarter = quickStarter;
        this.daemonConfig = daemonConfig;
    }

    public static void main(String[] args) {
        // first: a Netty class keeps the logger factory there was when it was loaded
        NettyLogBridge.install(Log.global());
        // Netty's buffer allocator declares JFR events, and with them on, the JVM sets up its
        // flight recorder at start (about 150 ms before the port opens, measured with the CDS
        // archive); set before any Netty class reads it. -Dio.netty.jfr.enabled=true restores them.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        // Netty's leak detector records a stack trace at every touch of a sampled buffer, which
        // showed up in relay profiles; the in-JVM tests keep it on, the shipped pooler does not.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        Tls.loadProviderInBackground();
        Main main = new Main(
                ServiceLoader.load(ServerStarter.class).findFirst().orElse(null),
                ServiceLoader.load(QuickStarter.class).findFirst().orElse(null),
                new SnapshotDaemonConfig());
        System.exit(main.run(args));
    }

    public Main withLog(Log log) {
        this.log = log;
        return this;
    }

    public Main withStreams(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
        return this;
    }

    public Main withLauncher(LauncherEnv launcher) {
        this.launcher = launcher;
        return this;
    }

    /** For tests running inside a shared JVM: do not take over the JVM's signal handlers. */
    public Main withoutSignalHandlers() {
        this.installSignals = false;
        return this;
    }

    /** What SIGQUIT finally calls; {@code Runtime.halt} in production. */
    public Main withHalt(IntConsumer halt) {
        this.halt = halt;
        return this;
    }

    public Main withDaemonTimeout(Duration timeout) {
        this.daemonTimeout = timeout;
        return this;
    }

    /** Where READY=1 goes once the listeners are bound; $NOTIFY_SOCKET in production. */
    Main withSystemd(SystemdNotify systemd) {
        this.systemd = systemd;
        return this;
    }

    /** The process a handover successor replaces; $SLUICE_HANDOVER_FROM in production. */
    Main withHandover(Optional<Handover> handover) {
        this.handover = handover;
        return this;
    }

    /** Runs the command line and returns the process exit code. */
    public int run(String[] args) {
        CliOutcome outcome = Cli.parse(args, out, err);
        if (outcome instanceof CliOutcome.Exit exit) {
            return exit.code();
        }
        CliOptions opts = ((CliOutcome.Run) outcome).options();
        log.setVerbose(opts.verbose());
        log.setQuiet(opts.quiet() || opts.daemonChild());
        log.setPid(launcher.publicPid());
        log.setJournalStream(JournalStream.isStderr(System.getenv("JOURNAL_STREAM"), JournalStream.STDERR));
        try {
            DaemonConfig dc = opts.config() == null ? DaemonConfig.NONE : daemonConfig.apply(opts.config());
            openLogfile(dc);
            // after the config, as PgBouncer: -u, else the config's user key
            checkUser(opts.user() != null ? opts.user() : dc.user());
            if (opts.daemon() && !opts.daemonChild()) {
                return daemonize(args, dc);
            }
            return serve(opts, dc);
        } catch (FatalError e) {
            if (e.logfile() != null && log.logfile() == null) {
                try {
                    log.reopen(e.logfile());
                } catch (IOException ignored) {
                    // stderr still has the lines, unless -q
                }
            }
            e.errors().forEach(log::error);
            log.fatal(e.getMessage());
            return 1;
        }
    }

    /** The launcher switched to this user when started as root; all Java can do is check it happened. */
    private static void checkUser(String user) {
        if (user != null && !user.equals(System.getProperty("user.name"))) {
            // PgBouncer's change_user() wording for a failed setuid (EPERM when not root).
            throw new FatalError("failed to assume identity of user '" + user + "': Operation not permitted");
        }
    }

    private void openLogfile(DaemonConfig dc) {
        if (dc.logfile() != null) {
            try {
                log.reopen(dc.logfile());
            } catch (IOException e) {
                throw cannotOpenLogfile(dc.logfile(), e);
            }
        }
    }

    /** PgBouncer's words when the logfile cannot be opened at start; it exits. */
    static FatalError cannotOpenLogfile(Path logfile, IOException e) {
        return new FatalError("Cannot open logfile: '" + logfile + "': " + FileErrors.reason(e), e);
    }

    private int daemonize(String[] args, DaemonConfig dc) {
        if (dc.pidfile() == null) {
            throw new FatalError("daemon needs pidfile configured");
        }
        if (dc.logfile() == null && !dc.syslog()) {
            throw new FatalError("daemon needs logfile configured");
        }
        Pidfile pidfile = new Pidfile(dc.pidfile());
        pidfile.checkFree(log);
        int code = new Daemonizer(log, daemonTimeout).detach(args, pidfile, launcher);
        log.close();
        return code;
    }

    private int serve(CliOptions opts, DaemonConfig dc) {
        Pidfile pidfile = dc.pidfile() == null ? null : new Pidfile(dc.pidfile());
        boolean replacePidfile = false;
        if (pidfile != null) {
            replacePidfile = pidfile.checkFree(log, handover.map(Handover::from).orElse(-1L));
        }
        Lifecycle lifecycle = start(opts);
        if (installSignals) {
            try {
                new Signals(lifecycle, log, () -> fastExit(pidfile)).install();
            } catch (FatalError e) {
                lifecycle.shutdownNow();
                throw e;
            }
        }
        // Logged before the pidfile exists: whoever waits for the pidfile may signal at once.
        log.info("process up: Sluice " + Version.sluice() + " (PgBouncer " + Version.PGBOUNCER_COMPAT
                + " compatible), netty " + Version.netty() + " (" + lifecycle.transport() + ")");
        if (pidfile != null) {
            pidfile.write(launcher.publicPid(), replacePidfile);
            Runtime.getRuntime().addShutdownHook(new Thread(pidfile::remove, "sluice-pidfile-cleanup"));
        }
        // Type=notify: systemctl start returns now, so listeners and pidfile must be in place.
        if (handover.isPresent()) {
            handover.get().takeOver(log, systemd, launcher.publicPid());
        } else {
            systemd.ready(log);
        }
        int code;
        try {
            code = lifecycle.terminated().toCompletableFuture().join();
        } catch (CompletionException e) {
            log.fatal("server failed: " + describe(e.getCause()));
            code = 1;
        }
        if (pidfile != null) {
            pidfile.remove();
        }
        return code;
    }

    private Lifecycle start(CliOptions opts) {
        try {
            if (opts.config() == null) {
                if (quickStarter == null) {
                    throw new FatalError("not supported: no config file given and no quick start available");
                }
                return quickStarter.start(opts);
            }
            if (starter == null) {
                throw new FatalError("not supported: no ServerStarter implementation on the class path");
            }
            return starter.start(opts.config(), opts);
        } catch (FatalError e) {
            throw e;
        } catch (Exception e) {
            throw new FatalError(describe(e), e);
        }
    }

    /** SIGQUIT: PgBouncer exits at once (status 0), removing the pidfile. */
    private void fastExit(Pidfile pidfile) {
        if (pidfile != null) {
            pidfile.remove();
        }
        log.close();
        halt.accept(0);
    }

    private static String describe(Throwable t) {
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }
}
