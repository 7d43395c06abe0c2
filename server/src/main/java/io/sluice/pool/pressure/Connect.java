package io.sluice.pool.pressure;

import io.sluice.pool.Permit;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;

/**
 * One connect in flight: for a checkout ({@code owner}), for replenish (neither), or replacing a
 * connection near the end of its lifetime ({@code replacing}). Ignores a second answer from the
 * connector. Engine thread only.
 */
final class Connect implements ServerConnector.Callback {
    private final Pool pool;
    private final Checkout owner;
    private final PooledServer replacing;
    private final long startedAt;
    private final long epoch;
    private final Permit permit;
    private boolean answered;

    Connect(Pool pool, Checkout owner, PooledServer replacing, long startedAt, long epoch, Permit permit) {
        this.pool = pool;
        this.permit = permit;
        this.owner = owner;
        this.replacing = replacing;
        this.startedAt = startedAt;
        this.epoch = epoch;
    }

    Checkout owner() {
        return owner;
    }

    PooledServer replacing() {
        return replacing;
    }

    long startedAt() {
        return startedAt;
    }

    long epoch() {
        return epoch;
    }

    /** The coordinator permit this connect holds (passed on to the connection), or null. */
    Permit permit() {
        return permit;
    }

    @Override
    public void connected(ServerHandle server) {
        if (answered) {
            server.close("duplicate connect answer");
            return;
        }
        answered = true;
        pool.creator().connectSucceeded(this, server);
    }

    @Override
    public void failed(String sqlState, String message) {
        if (answered) {
            return;
        }
        answered = true;
        pool.creator().connectFailed(this, sqlState, message, false);
    }

    @Override
    public void rejected(String sqlState, String message) {
        if (answered) {
            return;
        }
        answered = true;
        pool.creator().connectFailed(this, sqlState, message,
                !ServerConnector.CANNOT_CONNECT_NOW.equals(sqlState));
    }
}
