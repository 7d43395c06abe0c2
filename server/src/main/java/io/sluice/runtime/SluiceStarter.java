package io.sluice.runtime;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.log.Log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts Sluice from a pgbouncer.ini: loads the whole config first (a bad line names file and
 * line and nothing starts), configures logging, lowers the JIT compiler's priority when asked
 * ({@link CompilerThreads}), warms the login and relay paths up ({@link Warmup}), binds, and hands
 * the process shell its {@link Lifecycle}.
 */
public final class SluiceStarter implements ServerStarter {
    @Override
    public Lifecycle start(Path config, CliOptions options) throws Exception {
        ConfigSnapshot snapshot;
        List<String> fileErrors = new ArrayList<>();
        try {
            snapshot = ConfigLoader.loadForStart(config, fileErrors::add);
        } catch (ConfigException e) {
            throw FatalError.configNotLoaded(e);
        }
        return start(snapshot, fileErrors, options);
    }

    static Lifecycle start(ConfigSnapshot snapshot, CliOptions options) throws Exception {
        return start(snapshot, List.of(), options);
    }

    /** {@code fileErrors}: what PgBouncer logs as ERROR about its auth or hba file and starts anyway. */
    private static Lifecycle start(ConfigSnapshot snapshot, List<String> fileErrors, CliOptions options) throws Exception {
        Log log = Log.global();
        String logfile = snapshot.settings().string("logfile");
        if (logfile != null && !logfile.isEmpty()) {
            try {
                log.reopen(Path.of(logfile));
            } catch (java.io.IOException e) {
                throw Main.cannotOpenLogfile(Path.of(logfile), e);
            }
        }
        SyslogSocket.configure(log, snapshot.settings());
        log.setVerbose(options.verbose());
        log.applyConfigVerbose((int) snapshot.settings().integer("verbose"));
        fileErrors.forEach(log::error);
        snapshot.warnings().forEach(log::warning);
        CompilerThreads.lowerPriority(log);
        warmUp(log);
        FdLimits.line(snapshot, ServerAdminContext.userNames(snapshot).size()).ifPresent(log::info);
        ClientHeap.warning(snapshot.maxClientConn()).ifPresent(log::warning);
        SluiceServer server = new SluiceServer(snapshot);
        Consoles.attach(server);
        server.start();
        return new ServerLifecycle(server);
    }

    private static void warmUp(Log log) {
        long budget = Warmup.budgetMillis(System.getenv());
        if (budget == 0) {
            return;
        }
        Warmup.Outcome w = Warmup.run(budget);
        if (w.failure() != null) {
            log.warning("warm-up stopped early, after " + w.rounds() + " rounds: " + w.failure());
        }
        log.debug(() -> "warm-up: " + w.rounds() + " rounds in " + TimeUnit.NANOSECONDS.toMillis(w.nanos()) + " ms");
    }
}
