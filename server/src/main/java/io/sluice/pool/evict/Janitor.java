package io.sluice.pool.evict;

import io.sluice.pool.LifetimePolicy;
import io.sluice.pool.Permit;
import io.sluice.pool.PoolSettings;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerState;
import io.sluice.pool.pressure.Pool;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Periodic maintenance of pools ({@link #tick}), meant to run about once a second on the engine
 * thread: closes idle servers past server_idle_timeout (keeping min_pool_size of them, as
 * PgBouncer does) or past their jittered server_lifetime (no replacement: an idle pool
 * shrinks), and every retain_connections_time tops a pool up to min_pool_size by only
 * <em>trying</em> the burst gate; a busy gate counts replenish_deferred and waits for the next
 * cycle. Pre-replacement lives on the checkout path ({@code pool.pressure}), not here.
 *
 * <p>Under a coordinator the same cycle first runs the retain task: for a pool not under
 * pressure (no client waiting) it walks the idle queue and swaps reserve permits for main
 * permits while main has room, stopping at the first failure, then closes the idle
 * reserve-permit connections that could not be upgraded and have idled at least
 * min_connection_lifetime. So a reserve permit in use means a burst now or within one cycle.
 * Replenish then only try-acquires a permit (phase A). Engine thread only.
 */
public final class Janitor {
    private final Map<Pool, Long> lastCycle = new WeakHashMap<>();

    public void tick(Pool pool, long now) {
        tick(pool, now, true);
    }

    /** One pass; {@code mayGrow} false skips the min_pool_size top-up (paused database, shutdown). */
    public void tick(Pool pool, long now, boolean mayGrow) {
        pool.purgeDeadWaiters();
        if (pool.isClosed()) {
            return;
        }
        PoolSettings s = pool.settings();
        expireIdle(pool, s, now);
        Long last = lastCycle.get(pool);
        if (last != null && now - last < s.retainConnectionsTime()) {
            return;
        }
        lastCycle.put(pool, now);
        if (pool.coordinator() != null) {
            retain(pool, s, now);
        }
        if (mayGrow) {
            replenish(pool, s);
        }
    }

    /** The retain task of one pool (coordinator mode): reserve → main upgrade, then release. */
    static void retain(Pool pool, PoolSettings s, long now) {
        if (pool.waitingClients() > 0) {
            return;
        }
        // Upgrade in hand-out order, so main permits go to the servers used next and the reserve
        // permits left over sit on the coldest servers, which the loop below closes.
        List<PooledServer> handOutOrder = pool.idleServers();
        if (!s.roundRobin()) {
            Collections.reverse(handOutOrder);
        }
        for (PooledServer srv : handOutOrder) {
            Permit p = srv.permit();
            if (p != null && p.isReserve() && !p.tryUpgrade()) {
                break;
            }
        }
        for (PooledServer srv : pool.idleServers()) {
            Permit p = srv.permit();
            if (p != null && p.isReserve() && srv.state() == ServerState.IDLE
                    && srv.idleFor(now) >= s.minConnectionLifetime()) {
                pool.closeIdle(srv, "reserve connection not needed");
            }
        }
    }

    /**
     * Walks longest idle first: when min_pool_size stops the closing, the servers kept are the
     * ones returned last, which server_round_robin = 0 hands out next.
     */
    private static void expireIdle(Pool pool, PoolSettings s, long now) {
        for (PooledServer srv : pool.idleServers()) {
            if (srv.state() != ServerState.IDLE) {
                continue;
            }
            if (LifetimePolicy.expired(srv, s.serverLifetime(), now)) {
                pool.closeIdle(srv, "server lifetime over");
            } else if (s.serverIdleTimeout() > 0 && srv.idleFor(now) >= s.serverIdleTimeout()
                    && pool.size() > s.minPoolSize()) {
                pool.closeIdle(srv, "server idle timeout");
            }
        }
    }

    private static void replenish(Pool pool, PoolSettings s) {
        if (s.minPoolSize() <= 0) {
            return;
        }
        int target = Math.min(s.minPoolSize(), s.poolSize());
        while (pool.size() < target) {
            Pool.CreateStart r = pool.tryReplenish();
            if (r == Pool.CreateStart.STARTED) {
                continue;
            }
            if (r == Pool.CreateStart.GATE_BUSY) {
                pool.counters().replenishDeferred();
            }
            return;
        }
    }
}
