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
}
