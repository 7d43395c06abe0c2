package io.sluice.pool.coord;

import io.sluice.pool.PoolKey;
import java.util.List;

/**
 * Port: the coordinator's view of the other user pools of its database, for phase B eviction.
 * Implemented over the live pools by the registry side ({@code pool.evict}). Engine thread only.
 */
public interface EvictionSource {
    /**
     * Pools of {@code database} other than {@code requester} that hold more connections than
     * their min_guaranteed_pool_size and an idle connection eligible for the requester (the pool
     * is at least two connections bigger than the requester's, or the connection has been idle
     * {@code minLifetimeNanos} since its last use), best victim first: p95 transaction time
     * descending, then spare above the minimum descending.
     */
    List<Candidate> candidates(String database, PoolKey requester, long minLifetimeNanos);

    /**
     * The earliest instant (clock nanos) at which an idle connection of another pool of
     * {@code database} will have idled {@code minLifetimeNanos}, or {@link Long#MAX_VALUE} if none will.
     */
    long nextEligibleAt(String database, PoolKey requester, long minLifetimeNanos);

    /** One eviction candidate pool. */
    interface Candidate {
        PoolKey key();

        /** Cached p95 transaction time in nanos (-1 without samples). */
        long p95();

        /** Connections above the pool's min_guaranteed_pool_size. */
        int spare();

        /** Closes one eligible idle connection (its permit is released synchronously); false if none is left. */
        boolean evictOne();
    }
}
