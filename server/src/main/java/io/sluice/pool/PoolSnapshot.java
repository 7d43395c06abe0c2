package io.sluice.pool;

import java.util.List;

/**
 * Read-only view of one pool for SHOW POOLS / SHOW SERVERS. Client counts other than waiting
 * (cl_active, cancel requests) belong to the session layer.
 *
 * @param clWaiting   live checkouts not served yet
 * @param svActive    leased servers
 * @param svIdle      idle servers
 * @param svUsed      always 0: servers are checked when taken, not parked in a "used" list
 * @param svTested    servers running a recycle probe
 * @param svLogin     connects in progress
 * @param maxWaitNanos how long the oldest live waiter has waited
 */
public record PoolSnapshot(
        PoolKey key,
        int clWaiting,
        int svActive,
        int svIdle,
        int svUsed,
        int svTested,
        int svLogin,
        long maxWaitNanos,
        List<ServerSnapshot> servers) {

    /** SHOW POOLS maxwait: whole seconds. */
    public int maxwait() {
        return (int) (maxWaitNanos / 1_000_000_000L);
    }

    /** SHOW POOLS maxwait_us: the microsecond part below {@link #maxwait()}. */
    public int maxwaitUs() {
        return (int) ((maxWaitNanos % 1_000_000_000L) / 1_000L);
    }
}
