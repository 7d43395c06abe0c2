package io.sluice.session;

/** The admin console as the session sees it (implemented by runtime over {@code admin}). */
public interface Console {
    /**
     * Runs one simple-query string. {@code admin}/{@code stats} say what the user may do.
     * The reply may complete later (PAUSE, WAIT_CLOSE), always on the event loop.
     */
    void execute(String query, String user, boolean admin, ConsoleReply reply);
}
