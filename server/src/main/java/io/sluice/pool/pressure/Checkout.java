package io.sluice.pool.pressure;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.HandoffQueue;
import io.sluice.pool.PooledServer;
import io.sluice.pool.Waiter;
import io.sluice.pool.coord.PermitRequest;
import io.sluice.util.LinkedMembers;
import io.sluice.util.Scheduler.Cancellable;

/**
 * One client's walk through the checkout phases (see {@link Pool}); a small state machine
 * driven by the pool's events. Every wait ends in exactly one {@link #grant}, {@link #fail}
 * or {@link #abandon} (client gone: nothing is called). Engine thread only.
 */
final class Checkout {
    /** PERMIT: waiting on the database coordinator without a gate slot (still taking handoffs). */
    enum Phase { RECYCLE, SPIN, HANDOFF, GATE, PERMIT, PROBING, CONNECTING, DONE }

    private final Pool pool;
    final Waiter waiter;
    final long startedAt;
    /** Absolute end of the query_wait_timeout budget; Long.MAX_VALUE when unbounded. */
    private final long deadlineAt;
    private final boolean noWait;
    /** Its place in the pool's {@link Pool#pending()} list. */
    private final LinkedMembers.Link<Checkout> pendingLink = new LinkedMembers.Link<>(this);

    private Phase phase = Phase.RECYCLE;
    private int spinsLeft;
    private boolean anticipationTimedOut;
    private boolean gateWaitCounted;
    private boolean budgetExhausted;
    private boolean budgetRunning;
    private boolean deadlineArmed;
    private boolean reserveWakeArmed;
    private HandoffQueue.Ticket<Checkout> handoffTicket;
    private HandoffQueue.Ticket<Checkout> gateTicket;
    private Cancellable handoffTimer = Cancellable.NONE;
    private Cancellable budgetTimer = Cancellable.NONE;
    private Cancellable reserveTimer = Cancellable.NONE;
    private PermitRequest permitRequest;

    Checkout(Pool pool, Waiter waiter, long now, long queryWaitTimeout) {
        this.pool = pool;
        this.waiter = waiter;
        this.startedAt = now;
        this.noWait = queryWaitTimeout <= 0;
        this.deadlineAt = noWait || queryWaitTimeout >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + queryWaitTimeout;
    }

    Phase phase() {
        return phase;
    }

    boolean isDone() {
        return phase == Phase.DONE;
    }

    // ---- predicates for the lazy queues: they also retire checkouts whose client left ----

    boolean acceptsHandoff() {
        return (phase == Phase.SPIN || phase == Phase.HANDOFF || phase == Phase.GATE || phase == Phase.PERMIT
                || phase == Phase.CONNECTING) && aliveOrAbandon();
    }

    boolean waitsForGate() {
        return phase == Phase.GATE && aliveOrAbandon();
    }

    boolean aliveOrAbandon() {
        if (waiter.isAlive()) {
            return true;
        }
        abandon();
        return false;
    }

    // ---- phase 1: recycle (hot path) ----

    void start() {
        pool.pending().add(pendingLink);
        if (takeIdle(Phase.RECYCLE)) {
            return;
        }
        if (pool.creator().failsFast() && !waiter.waitsForWelcome()) {
            // PgBouncer's check_fast_fail: refuse now, and try a connect (server_login_retry permitting)
            // so that a later request finds a server.
            fail(pool.creator().fastFailure());
            pool.tryStartCreate(null);
            return;
        }
        armDeadline();
        phase2();
    }

    private void phase1() {
        phase = Phase.RECYCLE;
        if (!takeIdle(Phase.RECYCLE)) {
            phase2();
        }
    }

    /** {@link Recycler#takeIdle}: true when this checkout was served or is probing. */
    private boolean takeIdle(Phase resumeAt) {
        return pool.recycler().takeIdle(this, resumeAt);
    }

    /**
     * Goes on from {@code at} after a probed server failed its probe: a phase, not a method
     * reference, is what a walk carries, since every checkout walks the idle queue and a
     * reference would be an object made each time for the rare probe.
     */
    void resume(Phase at) {
        switch (at) {
            case RECYCLE -> phase1();
            case SPIN -> phase3();
            case GATE -> phase5();
            default -> throw new IllegalArgumentException("no walk of the idle queue resumes at " + at);
        }
    }

    // ---- phase 2: warm gate ----

    private void phase2() {
        if (noWait) {
            phase = Phase.GATE;
            if (!tryCreate()) {
                fail(Failures.waitTimeout());
            }
        } else if (WarmGate.isCold(pool.size(), pool.settings()) || pool.growth().takeOwed(pool)) {
            phase5();
        } else {
            spinsLeft = pool.settings().fastRetries();
            phase3();
        }
    }

    // ---- phase 3: anticipation spin, one re-poll per engine-loop turn ----

    private void phase3() {
        phase = Phase.SPIN;
        // The spinner takes its place in line first: a return goes to the oldest checkout, and
        // one that spins is older than the client whose own return made the server free.
        joinHandoffLine();
        if (spinsLeft <= 0 || (poolAtLimit() && pool.pending().size() > 1)) {
            // At a full pool with others waiting, every return goes to the oldest of them: a
            // re-poll of the idle queue could only find it empty.
            phase4();
            return;
        }
        spinsLeft--;
        pool.scheduler().execute(this::spinPoll);
    }

    private void spinPoll() {
        if (phase != Phase.SPIN || !aliveOrAbandon()) {
            return;
        }
        if (!takeIdle(Phase.SPIN)) {
            phase3();
        }
    }

    // ---- phase 4: direct handoff with an adaptive jittered deadline ----

    private void phase4() {
        if (poolAtLimit()) {
            phase5(); // no connect to fall back on: a deadline would only move it to the gate later
            return;
        }
        long d = pool.anticipation().handoffDeadline(remaining());
        if (d <= 0) {
            phase5();
            return;
        }
        phase = Phase.HANDOFF;
        joinHandoffLine();
        handoffTimer = pool.scheduler().schedule(this::onHandoffDeadline, d);
    }

    /** Queues for returns unless already in line: a checkout keeps its first place through the phases. */
    private void joinHandoffLine() {
        if (handoffTicket == null || !handoffTicket.isQueued()) {
            handoffTicket = pool.handoffQueue().add(this);
        }
    }

    private void onHandoffDeadline() {
        if (phase != Phase.HANDOFF) {
            return;
        }
        pool.counters().anticipationTimeout();
        anticipationTimedOut = true;
        phase5();
    }

    /** {@link DemandGrowth}: returns do not keep up with demand, so stop waiting for one and connect. */
    void stopAnticipating() {
        if (phase == Phase.SPIN) {
            phase5(); // the queued re-poll finds the phase changed and does nothing
        } else if (phase == Phase.HANDOFF) {
            handoffTimer.cancel();
            phase5();
        }
    }

    /** A returned connection chosen for this checkout (it already left the handoff queue). */
    void deliverHandoff(PooledServer s) {
        pool.counters().anticipationNotify();
        leaveQueues();
        switch (pool.recycler().check(s, this, Phase.GATE)) {
            case FIT -> grant(s);
            case UNFIT -> phase5();
            case PENDING -> { }
        }
    }

    // ---- phase 5: bounded burst gate ----

    void phase5() {
        phase = Phase.GATE;
        if (takeIdle(Phase.GATE)) {
            return;
        }
        boolean olderWaiters = pool.gate().oldestWaiter() != null;
        if (!olderWaiters && tryCreate()) {
            return;
        }
        joinHandoffLine();
        if (gateTicket == null || !gateTicket.isQueued()) {
            gateTicket = pool.gate().waiters().add(this);
        }
        if (!gateWaitCounted) {
            gateWaitCounted = true;
            pool.counters().gateWait();
        }
        armReserveWake();
        if (poolAtLimit()) {
            return; // no slot can help until a server closes, and closing one wakes the gate
        }
        if (!budgetExhausted && !budgetRunning) {
            budgetRunning = true;
            budgetTimer = pool.scheduler().schedule(this::onBudgetExhausted, pool.anticipation().burstBudget());
        }
        if (olderWaiters) {
            pool.requestGateWake();
        }
    }

    /** pool_size reached, no reserve: only a return (or a server closing) can serve this checkout. */
    private boolean poolAtLimit() {
        return pool.settings().reservePoolSize() <= 0 && pool.size() >= pool.settings().poolSize();
    }

    /**
     * The connect this checkout waited on failed (refused, timeout, 57P03): it goes back to the
     * head of the gate's line, where it stood when it took its slot, and waits for the retry
     * after server_login_retry or for a returned server, like PgBouncer's waiting clients. Its
     * place in the handoff line it never left ({@link #connecting()}).
     */
    void connectFailed() {
        phase = Phase.GATE;
        if (takeIdle(Phase.GATE)) {
            return;
        }
        gateTicket = pool.gate().waiters().addFirst(this);
        armReserveWake();
        pool.requestGateWake();
    }

    /**
     * A full pool may grow into reserve_pool_size once this client has waited
     * reserve_pool_timeout: wake the gate then, or nobody would look again until a return.
     */
    private void armReserveWake() {
        var s = pool.settings();
        if (reserveWakeArmed || s.reservePoolSize() <= 0 || pool.size() < s.poolSize()) {
            return;
        }
        reserveWakeArmed = true;
        long due = startedAt + s.reservePoolTimeout() - pool.now();
        reserveTimer = pool.scheduler().schedule(pool::requestGateWake, Math.max(0, due));
    }

    private void onBudgetExhausted() {
        if (phase != Phase.GATE) {
            return;
        }
        pool.counters().gateBudgetExhausted();
        budgetExhausted = true;
        budgetRunning = false;
        // Insist on a gate slot now, but keep the place in the handoff line: a checkout that
        // left it would starve once the pool reaches pool_size (no slot can help then) while
        // newer waiters keep receiving every returned connection.
        pool.requestGateWake();
    }

    /** The gate has a free slot or capacity freed up; true when this checkout used the wake. */
    boolean onGateWake() {
        if (takeIdle(Phase.GATE)) {
            return true;
        }
        return tryCreate();
    }

    /** Phase 6 entry: true when the walk stops here (connect started, or failed for good). */
    private boolean tryCreate() {
        switch (pool.tryStartCreate(this)) {
            case STARTED:
                return true;
            case CLOSED:
                fail(Failures.closed());
                return true;
            case DB_FULL:
                waitForPermit();
                return true;
            default:
                return false;
        }
    }

    // ---- coordinator mode: phase A failed inside the slot, which was not taken ----

    private void waitForPermit() {
        phase = Phase.PERMIT;
        if (gateTicket != null) {
            gateTicket.cancel();
        }
        budgetTimer.cancel();
        budgetRunning = false;
        // A connection returned to this pool serves us sooner than any permit.
        joinHandoffLine();
        armDeadline();
        permitRequest = pool.coordinator().acquire(new PermitWait(pool, this));
    }

    // ---- transitions called by the pool ----

    /**
     * Phase 6 begins: a gate slot is held and connect() is about to be called. The checkout keeps
     * (or takes) its place in the handoff line: as in PgBouncer, a free server goes to the oldest
     * waiting client whoever's connect it was, so a return that comes first serves it and its new
     * connection goes to the next in line. Bound to its own connect, the oldest clients of a herd
     * waited out slow connects while newer ones were served.
     */
    void connecting() {
        leaveQueues(true);
        joinHandoffLine();
        phase = Phase.CONNECTING;
        if (anticipationTimedOut) {
            pool.counters().createFallback();
        }
        armDeadline();
    }

    void probing() {
        leaveQueues();
        phase = Phase.PROBING;
        armDeadline();
    }

    void grant(PooledServer s) {
        if (!waiter.isAlive()) {
            abandon();
            pool.offer(s);
            return;
        }
        finish();
        pool.lend(s, this);
    }

    void fail(CheckoutFailure f) {
        boolean alive = waiter.isAlive();
        finish();
        pool.events().checkoutFailed(pool.key(), f);
        if (alive) {
            waiter.failed(f);
        }
    }

    /** The client left: drop out without an answer. */
    void abandon() {
        if (phase == Phase.DONE) {
            return;
        }
        finish();
        pool.events().checkoutAbandoned(pool.key());
    }

    /** The query_wait_timeout deadline this checkout waits under; Long.MAX_VALUE when none is armed. */
    long armedDeadline() {
        return deadlineArmed ? deadlineAt : Long.MAX_VALUE;
    }

    /** {@link WaitDeadlines}: query_wait_timeout ran out while this checkout waited. */
    void deadlinePassed() {
        if (phase != Phase.DONE) {
            fail(Failures.waitTimeout());
        }
    }

    private void finish() {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        leaveQueues();
        pool.pending().remove(pendingLink);
    }

    private void leaveQueues() {
        leaveQueues(false);
    }

    private void leaveQueues(boolean keepHandoffPlace) {
        if (handoffTicket != null && !keepHandoffPlace) {
            handoffTicket.cancel();
        }
        if (gateTicket != null) {
            gateTicket.cancel();
        }
        if (permitRequest != null) {
            permitRequest.cancel();
        }
        handoffTimer.cancel();
        budgetTimer.cancel();
        reserveTimer.cancel();
        budgetRunning = false;
    }

    private void armDeadline() {
        if (deadlineArmed || deadlineAt == Long.MAX_VALUE || phase == Phase.DONE) {
            return;
        }
        deadlineArmed = true;
        pool.waitDeadlines().armed(deadlineAt);
    }

    private long remaining() {
        return deadlineAt == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineAt - pool.now();
    }
}
