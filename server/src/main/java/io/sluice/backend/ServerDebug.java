package io.sluice.backend;

import io.sluice.log.Level;
import io.sluice.log.Log;

import java.util.function.Supplier;

/**
 * PgBouncer's {@code -v} (DEBUG) lines about a server connection ("launching new connection to
 * server", "S: connect ok", "S: param: ...", "server login ok"), built only when printed.
 */
final class ServerDebug {
    private ServerDebug() {
    }

    static void line(ServerConnection conn, Supplier<String> message) {
        if (Log.global().enabled(Level.DEBUG)) {
            conn.log(Level.DEBUG, message.get());
        }
    }

    /** Before the connect: the address comes from the target, the channel has none yet. */
    static void launching(ServerConnection conn, BackendTarget target) {
        Log.global().server(Level.DEBUG, conn.id(), conn.database(), conn.user(),
                target.unixSocket() ? "unix" : target.host(), target.port(), "launching new connection to server");
    }
}
