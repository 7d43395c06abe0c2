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
 * Adapter from the coordinator's {@link EvictionSource} port to the live pools. A pool other than
 * the requester may lose an idle connection when it holds more than its
 * {@code min_guaranteed_pool_size}, and the connection is eligible when either
 * <ul>
 * <li>the requester holds no connection at all: it cannot serve anyone, and PgBouncer would
 *     evict at once (with max_db_connections = 1 two pools trade the one connection, as there), or</li>
 * <li>the pool holds at least two more connections than the requester (a move toward an even
 *     split: PgBouncer would evict here at once, so Sluice does too, at any age), or</li>
 * <li>the connection has sat idle at least min_connection_lifetime (counted from its last use,
 *     not its birth: a pool that went idle stops shielding its connections that long after its
 *     last transaction, whenever it started).</li>
 * </ul>
 * Moves of the second kind only ever narrow the gap between two pools, so they cannot ping-pong;
 * the floor guards the moves between pools of about the same size, which could. {@code min_pool_size} shields nothing, as in
 * PgBouncer (it stays a replenish target). The victim of a pool is its longest-idle eligible
 * connection. p95 is read once per stats cycle (15 s) per pool, so ranking does not rescan
 * histograms. Engine thread only.
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
        List<Pool> all = pools.get();
        Eligibility rule = new Eligibility(requesterSize(all, requester), minLifetimeNanos);
        List<Candidate> out = new ArrayList<>();
        for (Pool p : all) {
            if (!isNeighbour(p, database, requester)) {
                continue;
            }
            if (victim(p, rule, now) != null) {
                out.add(new PoolCandidate(p, p95(p, now), spare(p), rule));
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
            if (!isNeighbour(p, database, requester) || spare(p) <= 0) {
                continue;
            }
            for (PooledServer s : p.idleServers()) {
                long eligible = s.lastReturnedAt() + minLifetimeNanos;
                if (eligible > now) {
                    at = Math.min(at, eligible);
                }
            }
        }
        return at;
    }

    private static boolean isNeighbour(Pool p, String database, PoolKey requester) {
        return p.key().database().equals(database) && !p.key().equals(requester) && !p.isClosed();
    }

    /** Connections the coordinator may take from {@code p}: all above min_guaranteed_pool_size. */
    static int spare(Pool p) {
        return p.size() - p.settings().minGuaranteedPoolSize();
    }

    private static int requesterSize(List<Pool> all, PoolKey requester) {
        for (Pool p : all) {
            if (p.key().equals(requester)) {
                return p.size();
            }
        }
        return 0;
    }

    private long p95(Pool p, long now) {
        long[] cached = p95Cache.get(p);
        if (cached == null || now - cached[1] >= P95_CACHE_NANOS) {
            cached = new long[] {p.latency().p95(), now};
            p95Cache.put(p, cached);
        }
        return cached[0];
    }

    /** When an idle connection of a neighbour may go to a requester of {@code requesterSize} connections. */
    record Eligibility(int requesterSize, long minLifetimeNanos) {
        boolean allows(Pool owner, PooledServer s, long now) {
            return requesterSize == 0 || owner.size() > requesterSize + 1 || s.idleFor(now) >= minLifetimeNanos;
        }
    }

    /** The longest-idle eligible connection of {@code p} (idle snapshots are longest idle first), or null. */
    static PooledServer victim(Pool p, Eligibility rule, long now) {
        if (spare(p) <= 0) {
            return null;
        }
        for (PooledServer s : p.idleServers()) {
            if (s.state() == ServerState.IDLE && rule.allows(p, s, now)) {
                return s;
            }
        }
        return null;
    }

    private final class PoolCandidate implements Candidate {
        private final Pool pool;
        private final long p95;
        private final int spare;
        private final Eligibility rule;

        PoolCandidate(Pool pool, long p95, int spare, Eligibility rule) {
            this.pool = pool;
            this.p95 = p95;
            this.spare = spare;
            this.rule = rule;
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
            PooledServer s = victim(pool, rule, clock.nanoTime());
            if (s == null) {
                return false;
            }
            pool.closeIdle(s, EVICTED);
            return true;
        }
    }
}
