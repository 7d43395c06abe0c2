package io.sluice.backend;

/**
 * Cancel requests as a client session uses them: forwarded to the server that runs the query,
 * and a released server held back until every cancel aimed at it is complete. Implemented by
 * {@link CancelForwarder}; session tests answer with their own.
 */
public interface Cancels {
    /**
     * Sends a CancelRequest to the server that runs a query; {@code done} runs (on the event loop)
     * once PostgreSQL has taken it, or forwarding failed.
     */
    void cancel(ServerConnection server, Runnable done);

    /**
     * Runs {@code then} once no cancel aimed at {@code server} is in flight (at once if none is): a
     * released server goes back to the pool only then, so a late cancel cannot hit the next client.
     */
    void whenDone(ServerConnection server, Runnable then);

    /** A cancel aimed at {@code server} is in flight: {@link #whenDone} would hold its callback back. */
    boolean cancelling(ServerConnection server);
}
