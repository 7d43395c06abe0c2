package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.pool.Lease;

/** Gives an unlinked, idle server back to its pool, after server_reset_query where one applies. */
final class ServerReturn {
    private ServerReturn() {
    }

    /** {@code resetQuery} null or empty: released at once; a failing reset closes the server instead. */
    static void afterReset(ServerConnection s, Lease l, String resetQuery) {
        if (resetQuery == null || resetQuery.isEmpty()) {
            l.release();
            return;
        }
        s.runInternal(resetQuery, ok -> {
            if (ok) {
                ServerSync.serverReset(s);
                l.release();
            } else {
                l.discard("reset query failed");
            }
        });
    }
}
