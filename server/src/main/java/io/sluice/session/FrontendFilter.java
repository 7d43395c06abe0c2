package io.sluice.session;

import io.sluice.log.Level;
import io.sluice.proto.Frame;

/**
 * What a logged-in client may send on, as PgBouncer's handle_client_work decides: a message type
 * that does not exist is refused here ("unknown pkt"), since PostgreSQL would kill the backend
 * over it, and Query is refused under disable_pqexec. A replication client's stream is not ours
 * to judge.
 */
final class FrontendFilter {
    static final String UNKNOWN = "unknown pkt";
    static final String PQEXEC = "PQexec disallowed";

    private FrontendFilter() {
    }

    /**
     * Null when the message may go on; otherwise PgBouncer's reason for closing the client.
     * ({@code disablePqexec} matters for a Query only: the caller may pass false for the rest.)
     */
    static String refusal(byte type, boolean replication, boolean disablePqexec) {
        if (replication) {
            return null;
        }
        if (type == 'Q' && disablePqexec) {
            return PQEXEC;
        }
        return relayed(type) ? null : UNKNOWN;
    }

    /**
     * Frontend messages a logged-in client may send, as PgBouncer's list (a switch: this runs for
     * every message a client sends).
     */
    private static boolean relayed(byte type) {
        return switch (type) {
            case 'Q', 'F', 'S', 'H', 'c', 'f', 'P', 'E', 'C', 'B', 'D', 'd', 'X', Frame.CONTINUATION -> true;
            default -> false;
        };
    }

    /** PgBouncer logs either refusal as an error, in its words, before closing the client. */
    static void logRefusal(ClientSession s, String reason, int type) {
        String words = UNKNOWN.equals(reason) ? "unknown pkt from client: " + type + "/0x" + Integer.toHexString(type)
                : PQEXEC.equals(reason) ? "client used 'Q' packet type" : null;
        if (words != null) {
            ClientLog.line(s, Level.ERROR, words);
        }
    }
}
