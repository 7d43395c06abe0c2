package io.sluice.session;

import io.sluice.log.Level;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;

import java.util.function.Consumer;

/**
 * A relay's checkouts of a server from its pool, one at a time: the client waits (PgBouncer's
 * cl_waiting) from the ask until the pool grants a lease, which goes to the relay, or refuses,
 * which fails the client. A checkout the client left before its answer is called off, and a
 * lease that comes after is given straight back.
 */
final class ServerCheckout {
    private final ClientSession session;
    private final PoolKey pool;
    private final RelayTimeouts timeouts;
    private final Consumer<Lease> onGranted;
    private Pending waiting;
    private long waitStart;

    ServerCheckout(ClientSession session, PoolKey pool, RelayTimeouts timeouts, Consumer<Lease> onGranted) {
        this.session = session;
        this.pool = pool;
        this.timeouts = timeouts;
        this.onGranted = onGranted;
    }

    /** A checkout is out and not answered yet. */
    boolean waiting() {
        return waiting != null;
    }

    /** When the last checkout was asked for (the timeouts' clock), for the pool's wait time. */
    long waitStart() {
        return waitStart;
    }

    /** Asks the pool for a server; the client waits for it in WAITING. */
    void ask() {
        session.moveTo(ClientSession.State.WAITING);
        timeouts.asking();
        waitStart = timeouts.now();
        Pending w = new Pending();
        waiting = w;
        session.context().checkout(pool, w);
        if (waiting == w) {
            timeouts.waiting(); // queued: query_timeout and query_wait_notify count the wait from here
        }
    }

    /** The client went away: the checkout out, if any, is no longer wanted. */
    void callOff() {
        if (waiting != null) {
            waiting.alive = false;
            waiting = null;
        }
    }

    /** The pool's answer to {@link #ask()}. */
    private final class Pending implements Waiter {
        boolean alive = true;

        @Override
        public boolean isAlive() {
            return alive && session.state() != ClientSession.State.CLOSED;
        }

        @Override
        public void granted(Lease l) {
            waiting = null;
            if (!isAlive()) {
                l.release();
                return;
            }
            onGranted.accept(l);
        }

        @Override
        public void failed(CheckoutFailure f) {
            waiting = null;
            session.failCheckout(f);
        }

        @Override
        public boolean logWarning(String message) {
            ClientLog.line(session, Level.WARNING, message);
            return true;
        }
    }
}
