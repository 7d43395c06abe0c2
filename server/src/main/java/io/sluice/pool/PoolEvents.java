package io.sluice.pool;

/**
 * Listener from the engine to the stats layer (Prometheus counters, logs). Called on the engine
 * thread; implementations must be quick and must not call back into the pool. All methods
 * default to doing nothing.
 */
public interface PoolEvents {
    /** A new server connection finished login and joined the pool. */
    default void serverCreated(PoolKey key, long serverId) {
    }

    /** A server connection was closed; {@code reason} is the log wording. */
    default void serverClosed(PoolKey key, long serverId, String reason) {
    }

    /** connect or login to PostgreSQL failed. */
    default void connectFailed(PoolKey key, String sqlState, String message) {
    }

    /** A client got a server after waiting {@code nanos} (0 on the hot path). */
    /** The pool grew past pool_size into reserve_pool_size because a client waited reserve_pool_timeout. */
    default void reserveUsed(PoolKey key) {
    }

    default void checkoutWaited(PoolKey key, long nanos) {
    }

    /** A checkout ended without a server. */
    default void checkoutFailed(PoolKey key, CheckoutFailure failure) {
    }

    PoolEvents NONE = new PoolEvents() {
    };
}
