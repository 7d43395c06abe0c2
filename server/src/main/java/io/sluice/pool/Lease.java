package io.sluice.pool;

/**
 * A server connection lent to one client. Released exactly once: {@link #release()} returns it
 * for reuse, {@link #discard(String)} closes it. Call on the engine thread.
 */
public interface Lease {
    ServerHandle server();

    /** Returns the connection; the engine hands it to the oldest live waiter or parks it idle. */
    void release();

    /** Closes the connection instead of reusing it (broken protocol state, client gone mid-query...). */
    void discard(String reason);

    /**
     * PgBouncer's close_needed: RECONNECT, a reload that changed the database, or PAUSE marked
     * the connection to be closed instead of reused once it comes back.
     */
    boolean closeNeeded();

    /**
     * A transaction on the server ended after holding it {@code nanos}: feeds its pool's latency
     * estimate, without the pool lookup a transaction would otherwise pay for.
     */
    void transactionDone(long nanos);
}
