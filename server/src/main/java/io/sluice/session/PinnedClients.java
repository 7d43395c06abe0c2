package io.sluice.session;

import io.sluice.pool.PoolKey;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Clients that keep their server between transactions because their session holds state that
 * cannot move (LISTEN, temporary tables, session advisory locks, WITH HOLD cursors, settings
 * Sluice cannot replay), per pool, so {@code max_pinned_servers} can bound how many of a pool's
 * servers pins take and the console can list them. Event loop only.
 */
public final class PinnedClients {
    private final Map<PoolKey, Set<ClientSession>> byPool = new HashMap<>();

    /**
     * Records {@code s} as pinned in {@code pool}; false (and nothing recorded) when the pool
     * already has {@code max} pinned clients. {@code max} 0 means no bound.
     */
    boolean pin(PoolKey pool, ClientSession s, int max) {
        Set<ClientSession> set = byPool.computeIfAbsent(pool, k -> new LinkedHashSet<>());
        if (set.contains(s)) {
            return true;
        }
        if (max > 0 && set.size() >= max) {
            return false;
        }
        set.add(s);
        return true;
    }

    void unpin(PoolKey pool, ClientSession s) {
        Set<ClientSession> set = byPool.get(pool);
        if (set != null && set.remove(s) && set.isEmpty()) {
            byPool.remove(pool);
        }
    }

    public int count(PoolKey pool) {
        Set<ClientSession> set = byPool.get(pool);
        return set == null ? 0 : set.size();
    }

    /** Every pinned client, pool by pool. */
    public List<ClientSession> all() {
        List<ClientSession> out = new ArrayList<>();
        byPool.values().forEach(out::addAll);
        return out;
    }
}
