package io.sluice.pool.evict;

import io.sluice.pool.LifetimePolicy;
import io.sluice.pool.PoolSettings;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerState;
import io.sluice.pool.pressure.Pool;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Periodic maintenance of pools ({@link #tick}), meant to run about once a second on the engine
 * thread: closes idle servers past server_idle_timeout (keeping min_pool_size of them, as
 * PgBouncer does) or past their jittered server_lifetime (no replacement: an idle pool
 * shrinks), and every retain_connections_time tops a pool up to min_pool_size by only
 * <em>trying</em> the burst gate; a busy gate counts replenish_deferred and waits for the next
 * cycle. Pre-replacement lives on the checkout path ({@code pool.pressure}), not here.
 */
public final class Janitor {
    private final Map<Pool, Long> lastReplenish = new WeakHashMap<>();

    public void tick(Pool pool, long now) {
        pool.purgeDeadWaiters();
        if (pool.isClosed()) {
            return;
        }
        PoolSettings s = pool.settings();
        expireIdle(pool, s, now);
        replenish(pool, s, now);
    }

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

    private void replenish(Pool pool, PoolSettings s, long now) {
        if (s.minPoolSize() <= 0) {
            return;
        }
        Long last = lastReplenish.get(pool);
        if (last != null && now - last < s.retainConnectionsTime()) {
            return;
        }
        lastReplenish.put(pool, now);
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
