package io.sluice.pool.pressure;

import io.sluice.pool.PoolSnapshot;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerSnapshot;
import io.sluice.pool.ServerState;
import java.util.ArrayList;
import java.util.List;

/** Builds the read-only {@link PoolSnapshot} of a pool for the console. Engine thread only. */
final class PoolSnapshots {
    private PoolSnapshots() {
    }

    static PoolSnapshot of(Pool pool) {
        pool.purgeDeadWaiters();
        long now = pool.now();
        int waiting = 0;
        long maxWait = 0;
        for (Checkout c : pool.pending()) {
            waiting++;
            maxWait = Math.max(maxWait, now - c.startedAt);
        }
        List<ServerSnapshot> servers = new ArrayList<>();
        for (PooledServer s : pool.places().leased()) {
            servers.add(server(pool, s));
        }
        for (PooledServer s : pool.idleServers()) {
            servers.add(server(pool, s));
        }
        for (PooledServer s : pool.places().testing()) {
            servers.add(server(pool, s));
        }
        for (Connect c : pool.connecting()) {
            servers.add(new ServerSnapshot(pool.key(), -1, ServerState.NEW.pgName(), c.startedAt(), null));
        }
        return new PoolSnapshot(pool.key(), waiting, pool.places().leasedCount(), pool.places().idle().size(), 0,
                pool.places().testingCount(), pool.connecting().size(), maxWait, List.copyOf(servers));
    }

    private static ServerSnapshot server(Pool pool, PooledServer s) {
        return new ServerSnapshot(pool.key(), s.handle().id(), s.state().pgName(), s.createdAt(), s.handle());
    }
}
