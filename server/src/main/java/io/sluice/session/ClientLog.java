package io.sluice.session;

import io.sluice.log.Level;
import io.sluice.log.Log;

import java.util.function.Supplier;

/**
 * PgBouncer's {@code -v} (DEBUG) and {@code -v -v} (NOISE) lines about a client, in its words
 * ("P: got connection", "got var", "logged in", "query time"...). A line is built only when it
 * is printed.
 */
final class ClientDebug {
    private ClientDebug() {
    }

    static void line(ClientSession s, Supplier<String> message) {
        line(s, Level.DEBUG, message);
    }

    static void line(ClientSession s, Level level, Supplier<String> message) {
        if (Log.global().enabled(level)) {
            Log.global().client(level, s.id(), s.database(), s.user(), s.logAddress(), s.remote().port(),
                    message.get());
        }
    }

    /** The accept, with both ends of the connection. */
    static void connected(ClientSession s) {
        line(s, () -> "P: got connection: " + s.remote().address() + ":" + s.remote().port() + " -> "
                + s.local().address() + ":" + s.local().port());
    }
}
