package io.sluice.pool;

/**
 * Listener from the engine to the stats layer (Prometheus counters, logs) and to whoever waits
 * for pools to drain. Called on the engine thread; implementations must be quick and must not
 * call back into the pool. All methods default to doing nothing.
 */
public interface PoolEvents {
    /** A new server connection finished login and joined the pool. */
    default void serverCreated(PoolKey key, long serverId) {
    }

    /** A server connection was closed; {@code reason} is the log wording. */
    default void serverClosed(PoolKey key, long serverId, String reason) {
    }

    /**
     * A server stopped being in use: its lease was released, or a recycle probe ended with no
     * client left to take it. It is idle, handed to a waiting client, or closed by now.
     */
    default void serverReleased(PoolKey key, long serverId) {
    }

    /** connect or login to PostgreSQL failed. */
    default void connectFailed(PoolKey key, String sqlState, String message) {
    }

    /** The pool grew past pool_size into reserve_pool_size because {@code oldest} waited reserve_pool_timeout. */
    default void reserveUsed(PoolKey key, Waiter oldest) {
    }

    /** A client got a server after waiting {@code nanos} (0 on the hot path). */
    default void checkoutWaited(PoolKey key, long nanos) {
    }

    /** A checkout ended without a server. */
    default void checkoutFailed(PoolKey key, CheckoutFailure failure) {
    }

    /** A checkout left the queue without an answer because its client had gone. */
    default void checkoutAbandoned(PoolKey key) {
    }

    PoolEvents NONE = new PoolEvents() {
    };
}
