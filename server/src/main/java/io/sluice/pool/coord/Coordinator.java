package io.sluice.pool.coord;

import io.sluice.pool.Permit;
import io.sluice.pool.PoolKey;
import io.sluice.util.Clock;
import io.sluice.util.Scheduler;
import io.sluice.util.Scheduler.Cancellable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The permit budget of one database shared by all its user pools: {@code max_db_connections}
 * main permits plus {@code db_reserve_pool_size} reserve permits. Idle reuse never touches it;
 * a pool asks only when it is about to connect, from inside a burst-gate slot
 * ({@link #tryAcquire}, phase A). When that fails the pool releases the slot and calls
 * {@link #acquire}, which walks R (reserve-first via the arbiter), B (evict an idle connection of
 * the slowest neighbour above its min_guaranteed_pool_size: at once when that neighbour holds at
 * least two more connections than the requester, as PgBouncer evicts at once; otherwise once the
 * connection has idled min_connection_lifetime since its last use), C (wait for a neighbour's
 * permit release or idle return, cheap acquire before eviction on every wake), D (ranked reserve
 * retry) and E (the "in use" error).
 *
 * <p>Wakes are deferred to the next engine-loop turn and coalesced, so an evicting caller always
 * takes the permit it just freed before any waiter sees it. Engine thread only.
 */
public final class Coordinator {
    /** PgBouncer-style SQLSTATE for "too many connections". */
    public static final String IN_USE_SQLSTATE = "53300";
    private static final int MAX_EVICTIONS_PER_TRY = 16;

    private final String database;
    private final Clock clock;
    private final Scheduler scheduler;
    private final EvictionSource evictions;
    private final ReserveArbiter arbiter;
    private final Set<PermitRequest> waiting = new LinkedHashSet<>();

    private int max;
    private int reserveSize;
    private long waitTimeout;
    private long minLifetime;
    private int mainUsed;
    private int reserveUsed;
    private long evictionCount;
    private long reserveAcquisitions;
    private long exhaustions;
    private long seq;
    private boolean wakeScheduled;
    private Cancellable floorTimer = Cancellable.NONE;
    private long floorTimerAt = Long.MAX_VALUE;

    public Coordinator(String database, int maxDbConnections, int reserveSize, long waitTimeoutNanos,
                       long minLifetimeNanos, EvictionSource evictions, Clock clock, Scheduler scheduler) {
        this.database = database;
        this.evictions = evictions;
        this.clock = clock;
        this.scheduler = scheduler;
        this.arbiter = new ReserveArbiter(this, scheduler);
        update(maxDbConnections, reserveSize, waitTimeoutNanos, minLifetimeNanos);
    }

    /** Reload: a lower max takes effect as connections close, never by closing any. */
    public void update(int maxDbConnections, int reserveSize, long waitTimeoutNanos, long minLifetimeNanos) {
        this.max = maxDbConnections;
        this.reserveSize = Math.max(0, reserveSize);
        this.waitTimeout = Math.max(0, waitTimeoutNanos);
        this.minLifetime = Math.max(0, minLifetimeNanos);
        requestWake();
    }

    public String database() {
        return database;
    }

    // ------------------------------------------------------------------ phase A

    /** Phase A: a main permit if one is free, else null. Never waits, never evicts. */
    public Permit tryAcquire() {
        if (max > 0 && mainUsed >= max) {
            return null;
        }
        mainUsed++;
        return new CoordinatorPermit(this, false);
    }

    // ------------------------------------------------------------------ phases R, B, C, D, E

    /** Starts phases R..E for a caller whose phase A failed and who holds no gate slot. */
    public PermitRequest acquire(PermitRequester requester) {
        PermitRequest r = new PermitRequest(requester, seq++, PermitRequest.Stage.RESERVE_FIRST);
        if (reserveUsed < reserveSize) {
            arbiter.submit(r);
        } else {
            evictOrWait(r);
        }
        return r;
    }

    /** The arbiter's answer to an R or D request ({@code permit} null: refused). */
    void arbiterAnswer(PermitRequest r, Permit permit) {
        if (permit != null) {
            grant(r, permit);
        } else if (r.stage == PermitRequest.Stage.RESERVE_FIRST || !r.requester.canConnectNow()) {
            // R refused, or D refused only because the pool's gate is busy right now: keep waiting.
            evictOrWait(r);
        } else {
            exhaust(r);
        }
    }

    private void evictOrWait(PermitRequest r) {
        Permit p = evictAndAcquire(r);
        if (p != null) {
            grant(r, p);
            return;
        }
        r.stage = PermitRequest.Stage.WAITING;
        waiting.add(r);
        if (waitTimeout > 0) {
            r.waitTimer = scheduler.schedule(() -> waitExpired(r), waitTimeout);
        }
        armFloorTimer();
    }

    /** Phase B: evict from the best candidate and retry A, until a permit or no candidate is left. */
    private Permit evictAndAcquire(PermitRequest r) {
        for (int i = 0; i < MAX_EVICTIONS_PER_TRY; i++) {
            List<EvictionSource.Candidate> list = evictions.candidates(database, r.requester.key(), minLifetime);
            if (list.isEmpty() || !list.get(0).evictOne()) {
                return null;
            }
            evictionCount++;
            Permit p = tryAcquire();
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    private void waitExpired(PermitRequest r) {
        waiting.remove(r);
        if (!r.live()) {
            return;
        }
        r.stage = PermitRequest.Stage.RESERVE_RETRY;
        if (reserveSize > 0) {
            arbiter.submit(r);
        } else {
            exhaust(r);
        }
    }

    private void grant(PermitRequest r, Permit p) {
        waiting.remove(r);
        r.cancel();
        r.requester.accept(p);
    }

    private void exhaust(PermitRequest r) {
        r.cancel();
        exhaustions++;
        r.requester.exhausted(inUseMessage());
    }

    /** Phase E text (spec/pressure.md): names the database and the budget it ran out of. */
    public String inUseMessage() {
        return "all server connections to database '" + database + "' are in use (max=" + max
                + ", reserve=" + reserveUsed + "/" + reserveSize + ")";
    }

    // ------------------------------------------------------------------ events from the pools

    /**
     * A pool holding {@code ownerSize} connections got one back. If a neighbour at least two
     * connections smaller waits for a permit (and could connect now), that connection is evicted
     * on the spot ({@code close} releases its permit) and the permit goes to the oldest such
     * waiter. Without this a busy pool's returns all go to its own queued clients and never sit
     * idle, so phase B finds nothing to evict while the neighbour starves. True when it was taken.
     */
    public boolean takeReturnedForStarving(PoolKey owner, int ownerSize, Runnable close) {
        for (PermitRequest r : waiting) {
            if (r.live() && !r.requester.key().equals(owner) && ownerSize > r.requester.poolSize() + 1
                    && r.requester.canConnectNow()) {
                Permit free = tryAcquire();                 // a free permit first: nobody is evicted
                if (free != null) {
                    grant(r, free);
                    return false;
                }
                close.run();
                evictionCount++;
                Permit p = tryAcquire();
                if (p != null) {
                    grant(r, p);
                }
                return true;
            }
        }
        return false;
    }

    /** A connection went back to an idle queue of this database: a neighbour's spare may have grown. */
    public void connectionReturned() {
        requestWake();
    }

    /** A pool of this database has a free gate slot again: a waiter there may connect now. */
    public void poke() {
        if (!waiting.isEmpty()) {
            requestWake();
        }
    }

    void released(boolean reserve) {
        if (reserve) {
            reserveUsed--;
        } else {
            mainUsed--;
        }
        requestWake();
    }

    Permit takeReserve() {
        if (reserveUsed >= reserveSize) {
            return null;
        }
        reserveUsed++;
        reserveAcquisitions++;
        return new CoordinatorPermit(this, true);
    }

    /** Retain task: a reserve permit becomes main when main has room. */
    boolean swapReserveForMain() {
        if (max > 0 && mainUsed >= max) {
            return false;
        }
        mainUsed++;
        reserveUsed--;
        requestWake();
        return true;
    }

    private void requestWake() {
        if (!wakeScheduled && !waiting.isEmpty()) {
            wakeScheduled = true;
            scheduler.execute(this::wake);
        }
    }

    /** Phase C wake: oldest waiter first; cheap acquire before eviction (the regression rule). */
    private void wake() {
        wakeScheduled = false;
        for (PermitRequest r : new ArrayList<>(waiting)) {
            if (!r.live()) {
                waiting.remove(r);
                continue;
            }
            if (!r.requester.canConnectNow()) {
                continue;
            }
            Permit p = tryAcquire();
            if (p == null) {
                p = evictAndAcquire(r);
            }
            if (p != null) {
                grant(r, p);
            }
        }
        armFloorTimer();
    }

    /** Wakes the waiters when the next idle neighbour connection has idled min_connection_lifetime. */
    private void armFloorTimer() {
        waiting.removeIf(r -> !r.live());
        if (waiting.isEmpty()) {
            floorTimer.cancel();
            floorTimerAt = Long.MAX_VALUE;
            return;
        }
        long at = Long.MAX_VALUE;
        for (PermitRequest r : waiting) {
            at = Math.min(at, evictions.nextEligibleAt(database, r.requester.key(), minLifetime));
        }
        if (at == floorTimerAt) {
            return;
        }
        floorTimer.cancel();
        floorTimerAt = at;
        if (at != Long.MAX_VALUE) {
            floorTimer = scheduler.schedule(() -> {
                floorTimerAt = Long.MAX_VALUE;
                floorTimer = Cancellable.NONE;
                requestWake();
            }, Math.max(0, at - clock.nanoTime()));
        }
    }

    // ------------------------------------------------------------------ read side

    public int waitingCount() {
        waiting.removeIf(r -> !r.live());
        return waiting.size();
    }

    public CoordinatorSnapshot snapshot() {
        return new CoordinatorSnapshot(database, max, mainUsed + reserveUsed, reserveSize, reserveUsed,
                evictionCount, reserveAcquisitions, exhaustions);
    }
}
