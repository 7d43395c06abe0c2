package io.sluice.pool.pressure;

import io.sluice.pool.PooledServer;
import io.sluice.pool.coord.Coordinator;

/**
 * Where a server goes when its client is done with it (PgBouncer's release_server): closed if
 * it must not be reused (pool closed, stale, lifetime over with {@code server_lifetime = 0});
 * else to a starving pool the coordinator names; else to the oldest live waiter, by direct
 * handoff; else, if the pool is not over its size, to the idle tail. Engine thread only.
 */
final class Returns {
    private final Pool pool;

    Returns(Pool pool) {
        this.pool = pool;
    }

    /** A client released {@code s}. */
    void release(PooledServer s) {
        pool.places().returned(s);
        if (pool.settings().serverLifetime() <= 0 && s.handle().servedClient()) {
            pool.closeServer(s, "server lifetime over");
            return;
        }
        offer(s);
    }

    /** {@code s} is free: a new connection, a returned one, or one a probe found fit for nobody. */
    void offer(PooledServer s) {
        if (pool.isClosed()) {
            pool.closeServer(s, "pool closed");
            return;
        }
        long now = pool.now();
        String stale = pool.releaseReason(s, now);
        if (stale != null) {
            pool.closeServer(s, stale);
            return;
        }
        s.markReturned(now);
        Coordinator coordinator = pool.coordinator();
        if (coordinator != null && coordinator.takeReturnedForStarving(pool.key(), pool.size() + 1,
                () -> pool.closeServer(s, "evicted"))) {
            return;
        }
        var handoff = pool.handoffQueue();
        Checkout next = handoff.pollLive(Checkout::acceptsHandoff);
        if (next != null) {
            next.deliverHandoff(s);
            pool.growth().afterHandoff(pool);
            return;
        }
        // Nobody waits: a reserve connection (or one above a pool_size lowered by reload) goes
        // away instead of idling (pre-replacement overlap excepted). s itself is in no list now.
        if (pool.size() + 1 > pool.settings().poolSize() + pool.creator().replacedAlive()) {
            pool.closeServer(s, pool.reserveInUse() ? "reserve connection no longer needed" : "pool size reduced");
            return;
        }
        pool.reserveIdle();
        pool.places().park(s);
        if (pool.gate().oldestWaiter() != null) {
            pool.requestGateWake();
        }
        if (coordinator != null) {
            coordinator.connectionReturned();
        }
    }
}
