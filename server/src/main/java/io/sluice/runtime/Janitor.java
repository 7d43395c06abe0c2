package io.sluice.runtime;

import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.log.Log;
import io.sluice.pool.PoolKey;
import io.sluice.session.ClientSession;
import io.sluice.stats.StatsRegistry;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server's periodic work, on its event loop: PgBouncer's janitor sweep (pools' maintenance,
 * min_pool_size for forced-user pools, server_fast_close) once a second, and the stats period's
 * boundary with its log_stats line.
 */
final class Janitor {
    private final SluiceServer server;

    Janitor(SluiceServer server) {
        this.server = server;
    }

    /** Starts both schedules; call once, on start. */
    void start() {
        openForcedUserPools();
        server.loop().scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
        scheduleStats();
    }

    /** Once a second: PgBouncer's janitor work (its 1/3 s sweep, at Sluice's pace). */
    private void tick() {
        openForcedUserPools();
        PauseControl pause = server.pauseControl();
        server.pools().tick(key -> !server.shuttingDown() && !pause.paused(key.database()));
        closeIdleServersMarkedForClosing();
    }

    /**
     * min_pool_size for [databases] entries with a forced user applies before any client
     * arrives, as in PgBouncer: their pools are created up front so the janitor fills them.
     */
    private void openForcedUserPools() {
        if (server.shuttingDown()) {
            return;
        }
        ConfigSnapshot c = server.routing().config();
        for (DatabaseEntry e : c.databases().values()) {
            if (e.hasForcedUser() && !DatabaseEntry.FALLBACK.equals(e.name())
                    && c.precedence().minPoolSize(e) > 0 && !server.pauseControl().paused(e.name())) {
                server.pools().pool(new PoolKey(e.name(), e.user().get()));
            }
        }
    }

    /** server_fast_close: idle session servers marked close_needed go now, with their clients. */
    void closeIdleServersMarkedForClosing() {
        if (server.settings().serverFastClose()) {
            for (ClientSession c : List.copyOf(server.clients().all())) {
                c.closeIfServerClosing();
            }
        }
    }

    /** stats_period, read afresh each period so that RELOAD changes it. */
    private void scheduleStats() {
        long period = Math.max(1, server.routing().config().settings().integer("stats_period"));
        server.loop().schedule(() -> {
            long[] avg = server.stats().periodBoundary();
            if (server.routing().config().settings().flag("log_stats")) {
                Log.global().info(StatsRegistry.logLine(avg));
            }
            scheduleStats();
        }, period, TimeUnit.SECONDS);
    }
}
