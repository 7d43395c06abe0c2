package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.pool.Lease;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;

/**
 * Keeps a client's pinned status in its pool's {@link PinnedClients} in step with its router,
 * refusing a pin beyond {@code max_pinned_servers}, and cleans a pinned client's server when the
 * client leaves so none of its state reaches the next one.
 */
final class PinGuard {
    private final ClientSession session;
    private final Route route;
    /**
     * Whether this client is recorded in {@link PinnedClients}: most clients never are, and
     * looking them up there after every transaction touched several objects that hundreds of
     * clients do not keep in the CPU's caches.
     */
    private boolean recorded;

    PinGuard(ClientSession session, Route route) {
        this.session = session;
        this.route = route;
    }

    /**
     * Records the client as pinned or not; false when a new pin would exceed the cap, in which
     * case the client has been failed with an error naming the key.
     */
    boolean update(StatementRouter router) {
        if (!router.pinned()) {
            left();
            return true;
        }
        if (session.context().clients().pins().pin(route.poolKey(), session, route.maxPinnedServers())) {
            recorded = true;
            return true;
        }
        String msg = "too many pinned servers (max_pinned_servers=" + route.maxPinnedServers()
                + "): LISTEN, temporary tables, session advisory locks and WITH HOLD cursors keep a server each";
        session.fail(PgError.fatal(SqlState.TOO_MANY_CONNECTIONS, msg), msg + " [" + router.pinReason() + "]");
        return false;
    }

    void left() {
        if (recorded) {
            recorded = false;
            session.context().clients().pins().unpin(route.poolKey(), session);
        }
    }

    /**
     * A pinned client left: its LISTEN, temporary tables, locks and cursors must not reach the
     * next client, so the server's session is discarded before it goes back (closed if that fails).
     * {@code readiesOwed}: answers still in flight to the client (a pin probe), skipped first.
     */
    static void discardSession(ServerConnection s, Lease l, int readiesOwed) {
        s.internal().runAfter(readiesOwed, "DISCARD ALL", ok -> {
            if (ok) {
                ServerSync.serverReset(s);
                l.release();
            } else {
                l.discard("DISCARD ALL failed after a pinned client left");
            }
        });
    }
}
