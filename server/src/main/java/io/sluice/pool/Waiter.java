package io.sluice.pool;

/**
 * Port: a client asking the pool for a server connection. The engine calls exactly one of
 * {@link #granted} or {@link #failed}, on the engine thread, and skips waiters that are no longer
 * {@link #isAlive() alive} (their client left) without calling either.
 */
public interface Waiter {
    boolean isAlive();

    void granted(Lease lease);

    void failed(CheckoutFailure failure);

    /**
     * A login waiting for the pool's greeting (PgBouncer's wait_for_welcome): it queues even
     * while server logins are failing and the pool is empty, where a request is refused at once.
     */
    default boolean waitsForWelcome() {
        return false;
    }

    /**
     * Writes {@code message}, a pool event this waiter caused, as a WARNING under its client's
     * log prefix (PgBouncer names the oldest waiting client when a pool takes from its reserve).
     * False when there is no client to name; the caller then writes it under the pool's name.
     */
    default boolean logWarning(String message) {
        return false;
    }
}
