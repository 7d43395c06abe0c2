package io.sluice.pool.pressure;

import io.sluice.pool.LifetimePolicy;
import io.sluice.pool.PooledServer;

/**
 * A pool's reconnect epochs (spec/pressure.md) and why a server may not be used again.
 * RECONNECT, a reload that changes the database, PAUSE, KILL and the pool's close each start a
 * new epoch; every server carries the epoch it connected in, and servers of an older one close,
 * idle ones at once, leased ones when they are given back.
 */
final class ReconnectEpochs {
    private long current;
    private String reason = "database configuration changed";
    /** Whether a server of an older epoch closes as "close_needed" when given back (RECONNECT, reload). */
    private boolean closeNeededAtRelease = true;
    private boolean closed;

    /** Starts a new epoch; the older servers close with {@code why} (PgBouncer's words). */
    void mark(String why, boolean closeNeededAtRelease) {
        current++;
        reason = why;
        this.closeNeededAtRelease = closeNeededAtRelease;
    }

    /** The pool closes: a last epoch, after which no server is used again. */
    void close() {
        closed = true;
        current++;
    }

    long current() {
        return current;
    }

    boolean isClosed() {
        return closed;
    }

    /** Why servers of an older epoch close: the last {@link #mark}'s reason. */
    String reason() {
        return reason;
    }

    /** Why {@code s} must not be used again, or null. */
    String staleReason(PooledServer s, long serverLifetime, long now) {
        if (!s.handle().isOpen()) {
            return "server connection closed";
        }
        if (s.epoch() < current) {
            return closed ? "pool closed" : reason;
        }
        if (s.handle().retired()) {
            return "host draining";
        }
        if (LifetimePolicy.expired(s, serverLifetime, now)) {
            return "server lifetime over";
        }
        return null;
    }

    /**
     * Why {@code s}, given back, must close, or null: as {@link #staleReason}, except that a
     * server RECONNECT or a reload marked closes as PgBouncer's release_server says,
     * "close_needed" (the idle ones closed at the mark itself, with the mark's reason). A server
     * that closed meanwhile keeps its own reason.
     */
    String releaseReason(PooledServer s, long serverLifetime, long now) {
        if (closeNeededAtRelease && !closed && s.handle().isOpen() && s.epoch() < current) {
            return "close_needed";
        }
        return staleReason(s, serverLifetime, now);
    }
}
