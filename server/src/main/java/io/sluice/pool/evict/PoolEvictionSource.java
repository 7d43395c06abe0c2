package io.sluice.pool.evict;

import io.sluice.pool.PoolKey;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerState;
import io.sluice.pool.coord.EvictionSource;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * Adapter from the coordinator's {@link EvictionSource} port to the live pools: candidates are
 * the other pools of the database with more connections than their effective minimum
 * ({@code max(min_pool_size, min_guaranteed_pool_size)}) and an idle connection at least
 * min_connection_lifetime old; the victim of a pool is its longest-idle eligible connection.
 * p95 is read once per stats cycle (15 s) per pool, so ranking does not rescan histograms.
 * Engine thread only.
 */
public final class PoolEvictionSource implements EvictionSource {
    /** The stats cycle: how long a pool's cached p95 is used for ranking. */
    static final long P95_CACHE_NANOS = 15_000_000_000L;
    static final String EVICTED = "evicted";

    private static final Comparator<Candidate> ORDER = Comparator
            .comparingLong(Candidate::p95).reversed()
            .thenComparing(Comparator.comparingInt(Candidate::spare).reversed());

    private final Supplier<List<Pool>> pools;
    private final Clock clock;
    private final Map<Pool, long[]> p95Cache = new WeakHashMap<>();

    public PoolEvictionSource(Supplier<List<Pool>> pools, Clock clock) {
        this.pools = pools;
        this.clock = clock;
    }

    @Override
    public List<Candidate> candidates(String database, PoolKey requester, long minLifetimeNanos) {
        long now = clock.nanoTime();
        List<Candidate> out = new ArrayList<>();
        for (Pool p : pools.get()) {
            if (!p.key().database().equals(database) || p.key().equals(requester) || p.isClosed()) {
                continue;
            }
            int spare = p.size() - p.settings().effectiveMinimum();
            if (spare > 0 && victim(p, minLifetimeNanos, now) != null) {
                out.add(new PoolCandidate(p, p95(p, now), spare, minLifetimeNanos));
            }
        }
        out.sort(ORDER);
        return out;
    }

    @Override
    public long nextEligibleAt(String database, PoolKey requester, long minLifetimeNanos) {
        long now = clock.nanoTime();
        long at = Long.MAX_VALUE;
        for (Pool p : pools.get()) {
            if (!p.key().database().equals(database) || p.key().equals(requester) || p.isClosed()
                    || p.size() <= p.settings().effectiveMinimum()) {
                continue;
            }
            for (PooledServer s : p.idleServers()) {
                long eligible = s.createdAt() + minLifetimeNanos;
                if (eligible > now) {
                    at = Math.min(at, eligible);
                }
            }
        }
        return at;
    }

    private long p95(Pool p, long now) {
        long[] cached = p95Cache.get(p);
        if (cached == null || now - cached[1] >= P95_CACHE_NANOS) {
            cached = new long[] {p.latency().p95(), now};
            p95Cache.put(p, cached);
        }
        return cached[0];
    }

    /** The longest-idle connection old enough to evict (idle snapshots are longest idle first), or null. */
    static PooledServer victim(Pool p, long minLifetimeNanos, long now) {
        for (PooledServer s : p.idleServers()) {
            if (s.state() == ServerState.IDLE && s.age(now) >= minLifetimeNanos) {
                return s;
            }
        }
        return null;
    }

    private final class PoolCandidate implements Candidate {
        private final Pool pool;
        private final long p95;
        private final int spare;
        private final long minLifetime;

        PoolCandidate(Pool pool, long p95, int spare, long minLifetime) {
            this.pool = pool;
            this.p95 = p95;
            this.spare = spare;
            this.minLifetime = minLifetime;
        }

        @Override
        public PoolKey key() {
            return pool.key();
        }

        @Override
        public long p95() {
            return p95;
        }

        @Override
        public int spare() {
            return spare;
        }

        @Override
        public boolean evictOne() {
            if (pool.size() <= pool.settings().effectiveMinimum()) {
                return false;
            }
            PooledServer s = victim(pool, minLifetime, clock.nanoTime());
            if (s == null) {
                return false;
            }
            pool.closeIdle(s, EVICTED);
            return true;
        }
    }
}
