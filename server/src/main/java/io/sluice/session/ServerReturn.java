package io.sluice.session;

import io.sluice.backend.Cancels;
import io.sluice.backend.ServerConnection;
import io.sluice.log.Level;
import io.sluice.pool.Lease;

/** Gives an unlinked, idle server back to its pool, after server_reset_query where one applies. */
final class ServerReturn {
    private ServerReturn() {
    }

    /**
     * {@link #afterReset} once no cancel aimed at {@code s} is in flight: at once, with no
     * callback made, when none is, as for nearly every transaction.
     */
    static void whenNoCancel(Cancels cancels, ServerConnection s, Lease l, String resetQuery) {
        if (cancels.cancelling(s)) {
            cancels.whenDone(s, () -> afterReset(s, l, resetQuery));
        } else {
            afterReset(s, l, resetQuery);
        }
    }

    /**
     * {@code resetQuery} null or empty: released at once. A reset that ends in an error (a query
     * typed wrong) still releases the server, as PgBouncer does, and is logged; a server that
     * does not answer closes.
     */
    static void afterReset(ServerConnection s, Lease l, String resetQuery) {
        if (resetQuery == null || resetQuery.isEmpty()) {
            l.release();
            return;
        }
        s.internal().runAnswered(resetQuery, a -> {
            switch (a) {
                case OK -> {
                    ServerSync.serverReset(s);
                    l.release();
                }
                case ERROR -> {
                    s.log(Level.WARNING, "server_reset_query failed: " + s.internal().lastError());
                    l.release();
                }
                case NONE -> l.discard("reset query failed");
            }
        });
    }
}
