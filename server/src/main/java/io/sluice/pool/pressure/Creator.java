package io.sluice.pool.pressure;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.LifetimePolicy;
import io.sluice.pool.Permit;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;
import io.sluice.pool.ServerState;
import io.sluice.pool.coord.Coordinator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Phase 6 and the other ways a pool opens connections (replenish, pre-replacement): gate slot,
 * database/user caps, server_login_retry, the connects in flight and where their result goes.
 *
 * <p>Under a {@link Coordinator} the database permit is taken just in time: only once a gate
 * slot is free (phase A, non-blocking). If the database is full the slot is not taken
 * ({@link Pool.CreateStart#DB_FULL}) and the checkout waits on the coordinator without a slot,
 * so permits held never exceed connects in flight plus live connections (no phantom permits).
 * Replenish and pre-replacement only try phase A. Engine thread only.
 */
final class Creator {
    private final Pool pool;
    private final ServerConnector connector;
    private final ConnectionLimit databaseLimit;
    private final ConnectionLimit userLimit;
    private final Coordinator coordinator;
    private final Set<Connect> connecting = new LinkedHashSet<>();
    private final LoginRetry loginRetry = new LoginRetry();
    private int preReplacing;
    private boolean retryWakeArmed;
    /** Live servers whose replacement was started: the pool may exceed pool_size by these. */
    private int replacedAlive;

    Creator(Pool pool, ServerConnector connector, ConnectionLimit databaseLimit, ConnectionLimit userLimit,
            Coordinator coordinator) {
        this.pool = pool;
        this.connector = connector;
        this.databaseLimit = databaseLimit;
        this.userLimit = userLimit;
        this.coordinator = coordinator;
    }

    Set<Connect> connecting() {
        return connecting;
    }

    int replacedAlive() {
        return replacedAlive;
    }

    /**
     * PgBouncer's check_fast_fail: the last login failed and the pool has no server left, so a
     * request that finds no idle server is refused at once instead of queueing.
     */
    boolean failsFast() {
        return loginRetry.failing() && pool.places().size() == 0;
    }

    /** What such a request is told (PgBouncer 1.25's words, with the cached error). */
    CheckoutFailure fastFailure() {
        return new CheckoutFailure(CheckoutFailure.Kind.CONNECT_FAILED, Failures.WAIT_TIMEOUT_SQLSTATE,
                "server login has been failing, cached error: " + loginRetry.message() + " (server_login_retry)");
    }

    void serverClosed(PooledServer s) {
        if (s.replacementRequested()) {
            replacedAlive--;
        }
    }

    /** Phase 6 (or replenish when {@code owner} is null): takes a gate slot and starts connect(). */
    Pool.CreateStart tryStart(Checkout owner) {
        Pool.CreateStart check = canStart();
        if (check != null) {
            return check;
        }
        if (!acquireLimits()) {
            return Pool.CreateStart.LIMIT;
        }
        Permit permit = null;
        if (coordinator != null) {
            permit = coordinator.tryAcquire();
            if (permit == null) {
                releaseLimitsQuietly();
                return Pool.CreateStart.DB_FULL;
            }
        }
        start(owner, permit);
        return Pool.CreateStart.STARTED;
    }

    /** Phase 6 with a permit the coordinator granted; releases the permit when it cannot start. */
    Pool.CreateStart startWithPermit(Checkout owner, Permit permit) {
        Pool.CreateStart check = canStart();
        if (check == null && !acquireLimits()) {
            check = Pool.CreateStart.LIMIT;
        }
        if (check != null) {
            permit.release();
            return check;
        }
        start(owner, permit);
        return Pool.CreateStart.STARTED;
    }

    /** Null when a client-driven connect may start now (a gate slot is free), else why not. */
    Pool.CreateStart canStart() {
        if (pool.isClosed()) {
            return Pool.CreateStart.CLOSED;
        }
        if (pool.size() >= pool.sizeLimit()) {
            return Pool.CreateStart.POOL_FULL;
        }
        if (loginRetry.blocks(pool.now(), pool.settings().serverLoginRetry())) {
            armRetryWake();
            return Pool.CreateStart.LOGIN_RETRY;
        }
        if (!pool.gate().hasFreeSlot(pool.settings().maxParallelCreates())) {
            return Pool.CreateStart.GATE_BUSY;
        }
        return null;
    }

    private void start(Checkout owner, Permit permit) {
        pool.gate().take();
        if (owner != null) {
            owner.connecting();
        }
        startConnect(new Connect(pool, owner, null, pool.now(), pool.epoch(), permit));
    }

    /** Pre-replacement of a connection near the end of its lifetime (checkout path only). */
    void preReplace(PooledServer old) {
        if (old.replacementRequested() || pool.isClosed() || preReplacing >= LifetimePolicy.MAX_PRE_REPLACEMENTS
                || loginRetry.blocks(pool.now(), pool.settings().serverLoginRetry())
                || pool.size() >= pool.settings().poolSize() + LifetimePolicy.MAX_PRE_REPLACEMENTS
                || !acquireLimits()) {
            return;
        }
        Permit permit = null;
        if (coordinator != null) {
            permit = coordinator.tryAcquire();
            if (permit == null) {
                releaseLimitsQuietly();
                return;
            }
        }
        old.replacementRequested(true);
        replacedAlive++;
        preReplacing++;
        startConnect(new Connect(pool, null, old, pool.now(), pool.epoch(), permit));
    }

    private void startConnect(Connect c) {
        connecting.add(c);
        pool.counters().createStarted();
        connector.connect(pool.key(), c);
    }

    void connectSucceeded(Connect c, ServerHandle handle) {
        endConnect(c);
        PooledServer s = new PooledServer(handle, pool.now(), pool.epoch(), lifetimeFactor());
        s.permit(c.permit());
        pool.events().serverCreated(pool.key(), handle.id());
        loginRetry.clear();
        Checkout owner = c.owner();
        boolean ownerWaits = owner != null && owner.phase() == Checkout.Phase.CONNECTING;
        if (pool.isClosed() || c.epoch() < pool.epoch()) {
            pool.closeServer(s, pool.isClosed() ? "pool closed" : pool.epochReason());
            if (ownerWaits) {
                owner.phase5();
            }
        } else if (ownerWaits) {
            owner.grant(s);
        } else {
            pool.offer(s);
        }
        pool.requestGateWake();
    }

    /**
     * A connect failed. As in PgBouncer nobody is failed for it: waiting clients (its owner too)
     * keep waiting and a new connect starts once server_login_retry has passed since this one
     * started; they fail only on query_wait_timeout. The exception is PostgreSQL refusing the
     * login itself ({@code rejected}, not 57P03) while the pool has no server left: then nobody
     * could be served, and every waiting client gets the server's error (PgBouncer's
     * kill_pool_logins).
     */
    void connectFailed(Connect c, String sqlState, String message, boolean rejected) {
        endConnect(c);
        releaseLimits(c.permit());
        loginRetry.recordFailure(c.startedAt(), sqlState, message);
        pool.events().connectFailed(pool.key(), sqlState, message);
        PooledServer old = c.replacing();
        if (old != null && old.state() != ServerState.CLOSED) {
            old.replacementRequested(false);
            replacedAlive--;
        }
        Checkout owner = c.owner();
        if (rejected && pool.places().size() == 0) {
            pool.failWaiting(new CheckoutFailure(CheckoutFailure.Kind.CONNECT_FAILED, sqlState, message));
        } else if (owner != null && owner.phase() == Checkout.Phase.CONNECTING) {
            owner.connectFailed();
        }
        pool.requestGateWake();
    }

    /** Wakes the gate queue when server_login_retry ends, so waiting clients get their connect. */
    private void armRetryWake() {
        if (retryWakeArmed) {
            return;
        }
        retryWakeArmed = true;
        long delay = Math.max(0, loginRetry.retryAt(pool.settings().serverLoginRetry()) - pool.now());
        pool.scheduler().schedule(() -> {
            retryWakeArmed = false;
            pool.requestGateWake();
        }, delay);
    }

    private double lifetimeFactor() {
        return 1.0 - LifetimePolicy.JITTER + 2 * LifetimePolicy.JITTER * pool.random().nextDouble();
    }

    private void endConnect(Connect c) {
        connecting.remove(c);
        if (c.replacing() != null) {
            preReplacing--;
        } else {
            pool.gate().release();
        }
    }

    private boolean acquireLimits() {
        if (!databaseLimit.tryAcquire()) {
            return false;
        }
        if (userLimit != databaseLimit && !userLimit.tryAcquire()) {
            databaseLimit.releaseQuietly();
            return false;
        }
        return true;
    }

    private void releaseLimitsQuietly() {
        databaseLimit.releaseQuietly();
        if (userLimit != databaseLimit) {
            userLimit.releaseQuietly();
        }
    }

    /** A connection closed or a connect failed: its caps and its coordinator permit are given back. */
    void releaseLimits(Permit permit) {
        if (permit != null) {
            permit.release();
        }
        databaseLimit.release();
        if (userLimit != databaseLimit) {
            userLimit.release();
        }
    }

}
