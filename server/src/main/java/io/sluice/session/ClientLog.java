package io.sluice.session;

import io.sluice.log.Level;
import io.sluice.log.Log;

import java.util.function.Supplier;

/**
 * Log lines about one client, each with PgBouncer's prefix: the client's id, its database and
 * user ("(nodb)" while PgBouncer would have no pool for it, "(nouser)" before it names a user) and
 * its address ({@code unix(<pid>)} for a unix-socket client). The {@code -v} (DEBUG) and
 * {@code -v -v} (NOISE) lines, in PgBouncer's words ("P: got connection", "got var", "logged
 * in"...), are built only when printed.
 */
final class ClientLog {
    private ClientLog() {
    }

    static void line(ClientSession s, String message) {
        line(s, Level.LOG, message);
    }

    static void line(ClientSession s, Level level, String message) {
        Log.global().client(level, s.id(), database(s), s.user(), address(s), s.remote().port(), message);
    }

    /** A line from before PgBouncer has a user for the client: "(nodb)/(nouser)". */
    static void withoutUser(ClientSession s, String message) {
        Log.global().client(s.id(), null, null, address(s), s.remote().port(), message);
    }

    /** Whether debug lines are logged: asked first where building the message's supplier would allocate per query. */
    static boolean debugging() {
        return Log.global().enabled(Level.DEBUG);
    }

    static void debug(ClientSession s, Supplier<String> message) {
        debug(s, Level.DEBUG, message);
    }

    static void debug(ClientSession s, Level level, Supplier<String> message) {
        if (Log.global().enabled(level)) {
            line(s, level, message.get());
        }
    }

    /** The accept, with both ends of the connection. */
    static void connected(ClientSession s) {
        debug(s, () -> "P: got connection: " + s.remote().address() + ":" + s.remote().port() + " -> "
                + s.local().address() + ":" + s.local().port());
    }

    private static String database(ClientSession s) {
        return s.poolless() ? null : s.database();
    }

    private static String address(ClientSession s) {
        return s.unixSocket() ? "unix(" + s.remotePid() + ")" : s.remote().address();
    }
}
