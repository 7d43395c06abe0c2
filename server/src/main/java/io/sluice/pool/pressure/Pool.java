package io.sluice.pool.pressure;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.HandoffQueue;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PoolSettings;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ScalingCounters;
import io.sluice.pool.ScalingSnapshot;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerState;
import io.sluice.pool.TransactionLatency;
import io.sluice.pool.Waiter;
import io.sluice.pool.coord.Coordinator;
import io.sluice.util.Clock;
import io.sluice.util.LinkedMembers;
import io.sluice.util.Randomness;
import io.sluice.util.Scheduler;
import java.util.List;
import java.util.Set;

/**
 * The engine of one (database, user) pool: idle queue (handed out most recently
 * returned first, or oldest first with server_round_robin), leased and probing servers, connects
 * in flight, the FIFO handoff queue of waiting clients, the burst gate, and the checkout walk:
 * 1 recycle an idle server, 2 warm gate, 3 anticipation spin, 4 direct handoff with an adaptive
 * jittered deadline, 5 bounded burst gate, 6 connect — all inside one query_wait_timeout budget.
 *
 * <p>Threading: confined to the engine thread; never blocks, never locks. Waiting is a queued
 * {@link Checkout} plus timers from the {@link Scheduler}.
 *
 * <p>Anticipation spin on one thread: a tight loop could never observe a return (returns run
 * on this same thread), so each of the {@code scaling_fast_retries} spin iterations is a re-poll
 * of the idle queue submitted with {@link Scheduler#execute}; returns already queued on the
 * engine thread run before it. The spinner already stands in the handoff queue, so a return
 * reaches it in arrival order: outside the line, spinners and new arrivals raced for each return,
 * and a client that had just given a server back often got it again (on io_uring, where spins
 * span I/O, with 500 clients on 40 servers the slowest 1 % waited 8–12 × as long as others that
 * started with them).
 *
 * <p>Return path: a released connection goes to the oldest live waiter in the handoff queue (and
 * the pool grows, {@link DemandGrowth}), else to the idle tail. Connects are started for a
 * checkout; the new connection goes to it (or back through the return path).
 *
 * <p>Coordinator mode (max_db_connections &gt; 0): the pool shares a {@link Coordinator} with
 * the other user pools of its database. A connect needs a database permit taken inside a free
 * gate slot; when the database is full the checkout releases nothing it did not take, waits on
 * the coordinator (phase {@code PERMIT}, still taking handoffs of its own pool) and retakes a
 * slot once granted. Every return to the idle queue and every freed slot is reported to the
 * coordinator (its phase C wake-ups).
 */
public final class Pool {
    /** Outcome of an attempt to start a connect. */
    public enum CreateStart { STARTED, POOL_FULL, LOGIN_RETRY, GATE_BUSY, LIMIT, DB_FULL, CLOSED }

    private final PoolKey key;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Randomness random;
    private final PoolEvents events;
    private PoolSettings settings;

    private final ServerPlaces places = new ServerPlaces();
    private final HandoffQueue<Checkout> handoff = new HandoffQueue<>();
    private final WaitDeadlines waitDeadlines = new WaitDeadlines(this);
    private final LinkedMembers<Checkout> pending = new LinkedMembers<>();
    /** The pool grew into reserve_pool_size (logged once per excursion, like PgBouncer). */
    private boolean reserveInUse;
    private final BurstGate gate = new BurstGate();
    private final TransactionLatency latency = new TransactionLatency();
    private final ScalingCounters counters = new ScalingCounters();
    private final Anticipation anticipation;
    private final DemandGrowth growth = new DemandGrowth();
    private final Recycler recycler = new Recycler(this);
    private final Returns returns = new Returns(this);
    private final Creator creator;
    private final Coordinator coordinator;
    private final ReconnectEpochs epochs = new ReconnectEpochs();
    private boolean wakeScheduled;

    public Pool(PoolKey key, PoolSettings settings, ServerConnector connector, PoolEvents events,
                ConnectionLimit databaseLimit, ConnectionLimit userLimit,
                Clock clock, Scheduler scheduler, Randomness random) {
        this(key, settings, connector, events, databaseLimit, userLimit, null, clock, scheduler, random);
    }

    /** A pool under {@code coordinator} (null: plain mode, {@code databaseLimit} caps the database). */
    public Pool(PoolKey key, PoolSettings settings, ServerConnector connector, PoolEvents events,
                ConnectionLimit databaseLimit, ConnectionLimit userLimit, Coordinator coordinator,
                Clock clock, Scheduler scheduler, Randomness random) {
        this.key = key;
        this.settings = settings;
        this.events = events;
        this.coordinator = coordinator;
        this.creator = new Creator(this, connector, databaseLimit, userLimit, coordinator);
        this.clock = clock;
        this.scheduler = scheduler;
        this.random = random;
        this.anticipation = new Anticipation(latency, random);
        databaseLimit.addReleaseListener(this::requestGateWake);
        if (userLimit != databaseLimit) {
            userLimit.addReleaseListener(this::requestGateWake);
        }
    }

    // ------------------------------------------------------------------ client API

    /** Asks for a server; {@code waiter} later gets exactly one of granted/failed (none if it dies). */
    public void checkout(Waiter waiter) {
        checkout(waiter, 0);
    }

    /**
     * Asks for a server for a request that already waited {@code waitedNanos} elsewhere (held by
     * PAUSE): that time counts against its query_wait_timeout, as it does in PgBouncer.
     */
    public void checkout(Waiter waiter, long waitedNanos) {
        if (epochs.isClosed()) {
            waiter.failed(Failures.closed());
            return;
        }
        long budget = settings.queryWaitTimeout();
        if (waitedNanos > 0 && budget > 0 && budget != Long.MAX_VALUE) {
            if (waitedNanos >= budget) {
                waiter.failed(Failures.waitTimeout());
                return;
            }
            budget -= waitedNanos;
        }
        new Checkout(this, waiter, now(), budget).start();
    }

    /** Called by the session layer at each transaction end: feeds the adaptive budgets. */
    public void recordTransaction(long nanos) {
        latency.record(nanos);
    }

    // ------------------------------------------------------------------ admin / reload

    /**
     * Admin RECONNECT, RELOAD of a changed database, PAUSE: idle connections close now, leased
     * ones when released, new ones open as needed; each close is logged with {@code reason}
     * (PgBouncer's words: "database configuration changed", "pause mode"). With
     * {@code closeNeededAtRelease}, a leased server closes at release as "close_needed", as
     * PgBouncer's release_server logs the servers RECONNECT or a reload marked.
     */
    public void reconnect(String reason, boolean closeNeededAtRelease) {
        epochs.mark(reason, closeNeededAtRelease);
        for (PooledServer s : places.idle().snapshot()) {
            closeServer(s, reason);
        }
    }

    /** Why servers of an older epoch close: the last {@link #reconnect}'s reason. */
    String epochReason() {
        return epochs.reason();
    }

    /** Shuts the pool: idle servers close now, leased ones at release; waiters fail with CLOSED. */
    public void closeAll(String reason) {
        epochs.close();
        for (PooledServer s : places.idle().snapshot()) {
            closeServer(s, reason);
        }
        failWaiting(new CheckoutFailure(CheckoutFailure.Kind.CLOSED, Failures.WAIT_TIMEOUT_SQLSTATE, reason));
    }

    /** Answers every waiting checkout with {@code failure} (SHUTDOWN WAIT_FOR_SERVERS, a login nobody can pass). */
    public void failWaiting(CheckoutFailure failure) {
        for (Checkout c : pending.snapshot()) {
            c.fail(failure);
        }
    }

    /**
     * Reload: new settings apply to the next decision (server_round_robin included: the idle
     * queue keeps return order, so a flip needs no reordering); a smaller pool shrinks as
     * servers return.
     */
    public void updateSettings(PoolSettings next) {
        this.settings = next;
        requestGateWake();
    }

    // ------------------------------------------------------------------ janitor API (pool.evict)

    /** Idle servers, longest idle first whatever server_round_robin says; a copy. */
    public List<PooledServer> idleServers() {
        return places.idle().snapshot();
    }

    /** Closes an idle server (idle timeout, lifetime over...); no replacement. */
    public void closeIdle(PooledServer s, String reason) {
        if (s.state() == ServerState.IDLE) {
            closeServer(s, reason);
        }
    }

    /** One replenish attempt for min_pool_size: only tries the gate, never waits. */
    public CreateStart tryReplenish() {
        return tryStartCreate(null);
    }

    /** Retires checkouts whose client left, so cl_waiting and maxwait stay honest. */
    public void purgeDeadWaiters() {
        for (Checkout c : pending.snapshot()) {
            if (!c.waiter.isAlive()) {
                c.abandon();
            }
        }
    }

    // ------------------------------------------------------------------ read side

    public PoolKey key() {
        return key;
    }

    public PoolSettings settings() {
        return settings;
    }

    public ScalingCounters counters() {
        return counters;
    }

    public TransactionLatency latency() {
        return latency;
    }

    /** The database's coordinator, or null in plain mode. */
    public Coordinator coordinator() {
        return coordinator;
    }

    /** Clients waiting for a server (checkouts not served yet). */
    public int waitingClients() {
        return pending.size();
    }

    /** Below its effective minimum: wins the coordinator's reserve arbiter. */
    public boolean starving() {
        return size() < settings.effectiveMinimum();
    }

    public boolean isClosed() {
        return epochs.isClosed();
    }

    public long epoch() {
        return epochs.current();
    }

    /** All connections of the pool: idle, leased, probing and being opened. */
    public int size() {
        return places.size() + creator.connecting().size();
    }

    /** Connects in flight (burst-gate slots plus pre-replacements). */
    public int inflight() {
        return creator.connecting().size();
    }

    public ScalingSnapshot scaling() {
        return counters.snapshot(key, inflight());
    }

    public io.sluice.pool.PoolSnapshot snapshot() {
        return PoolSnapshots.of(this);
    }

    ServerPlaces places() {
        return places;
    }

    Set<Connect> connecting() {
        return creator.connecting();
    }

    Randomness random() {
        return random;
    }

    // ------------------------------------------------------------------ engine internals

    long now() {
        return clock.nanoTime();
    }

    Scheduler scheduler() {
        return scheduler;
    }

    PoolEvents events() {
        return events;
    }

    HandoffQueue<Checkout> handoffQueue() {
        return handoff;
    }

    LinkedMembers<Checkout> pending() {
        return pending;
    }

    WaitDeadlines waitDeadlines() {
        return waitDeadlines;
    }

    BurstGate gate() {
        return gate;
    }

    Anticipation anticipation() {
        return anticipation;
    }

    Creator creator() {
        return creator;
    }

    DemandGrowth growth() {
        return growth;
    }

    Recycler recycler() {
        return recycler;
    }

    /** Why {@code s}, given back, must close, or null (see {@link ReconnectEpochs#releaseReason}). */
    String releaseReason(PooledServer s, long now) {
        return epochs.releaseReason(s, settings.serverLifetime(), now);
    }

    /** Why {@code s} must not be reused, or null. */
    String staleReason(PooledServer s, long now) {
        return epochs.staleReason(s, settings.serverLifetime(), now);
    }

    void lend(PooledServer s, Checkout c) {
        places.lend(s);
        events.checkoutWaited(key, now() - c.startedAt);
        c.waiter.granted(new PoolLease(this, s));
    }

    /**
     * How many servers this pool may hold now: {@code pool_size}, plus PgBouncer's
     * {@code reserve_pool_size} once the oldest waiting client has waited
     * {@code reserve_pool_timeout} (PgBouncer's meaning of those keys, kept for drop-in configs).
     */
    int sizeLimit() {
        int reserve = settings.reservePoolSize();
        if (reserve <= 0 || pending.isEmpty()) {
            return settings.poolSize();
        }
        Checkout oldest = pending.first();
        if (now() - oldest.startedAt < settings.reservePoolTimeout()) {
            return settings.poolSize();
        }
        if (size() >= settings.poolSize() && !reserveInUse) {
            reserveInUse = true;
            events.reserveUsed(key, oldest.waiter);
        }
        return settings.poolSize() + reserve;
    }

    void release(PooledServer s) {
        returns.release(s);
    }

    void discard(PooledServer s, String reason) {
        closeServer(s, reason);
    }

    /** Return path: oldest live waiter first, else the idle tail ({@link Returns}). */
    void offer(PooledServer s) {
        returns.offer(s);
    }

    /** The reserve's connections are no longer all needed: nobody waits (see {@link #sizeLimit}). */
    void reserveIdle() {
        reserveInUse = false;
    }

    boolean reserveInUse() {
        return reserveInUse;
    }

    void closeServer(PooledServer s, String reason) {
        if (!places.close(s)) {
            return;
        }
        creator.serverClosed(s);
        s.handle().close(reason);
        events.serverClosed(key, s.handle().id(), reason);
        creator.releaseLimits(s.permit());
        s.permit(null);
        requestGateWake();
    }

    CreateStart tryStartCreate(Checkout owner) {
        return creator.tryStart(owner);
    }

    /** True when a client-driven connect could start at once (coordinator's canConnectNow). */
    boolean canStartCreate() {
        return creator.canStart() == null;
    }

    void preReplace(PooledServer old) {
        creator.preReplace(old);
    }

    /** Coalesced, deferred wake of the burst-gate queue (capacity or a slot may be free). */
    void requestGateWake() {
        if (!wakeScheduled && !epochs.isClosed()) {
            wakeScheduled = true;
            scheduler.execute(this::gateWake);
        }
    }

    private void gateWake() {
        wakeScheduled = false;
        Checkout c;
        // Each checkout that finds the database full asks the coordinator in place of a slot it
        // did not take; no more of them ask than there are free slots (no phantom permits).
        int asks = 0;
        while ((c = gate.oldestWaiter()) != null) {
            if (!c.onGateWake()) {
                break;
            }
            if (c.phase() == Checkout.Phase.PERMIT
                    && ++asks >= Math.max(1, settings.maxParallelCreates()) - gate.inflight()) {
                break;
            }
        }
        if (coordinator != null && gate.hasFreeSlot(settings.maxParallelCreates())) {
            coordinator.poke();
        }
    }
}
