package io.sluice.session;

import io.sluice.proto.PgError;
import io.sluice.session.state.ClientStatements;
import io.sluice.session.state.SqlCommand;
import io.sluice.session.state.StatementKey;

import java.util.List;
import java.util.function.Consumer;

/**
 * One answer the server (or Sluice itself) owes, in the order the client will see it: PgBouncer's
 * outstanding request, with what to do with it. {@link #kind} is the type letter of the message
 * that asked (P, B, D, C, E, S, Q, F).
 */
final class Expected {
    /** What happens to the answer. */
    enum Action {
        /** The client's own message: relay the answer. */
        FORWARD,
        /** Sent by Sluice for the client (a Parse before Bind): swallow the answer, relay errors. */
        HIDDEN,
        /** Sluice's own query (settings sync, probe): swallow everything, errors too. */
        INTERNAL,
        /** Answered by Sluice: {@link #fake} goes to the client when this reaches the head. */
        FAKE
    }

    final char kind;
    final Action action;
    /** A Parse's client name (null for hidden ones) and its registration, undone if it never completes. */
    String clientName;
    ClientStatements.Entry entry;
    /** The statement as the server has it (Parse/Bind/Describe/Close of a server name). */
    StatementKey key;
    String serverName;
    /** Execute: what its statement does; Query: its statements, {@link #next} the one answering now. */
    SqlCommand command = SqlCommand.NONE;
    List<SqlCommand> commands = List.of();
    int next;
    /** Registration marks when sent: a DEALLOCATE ALL / DISCARD ALL answering this clears only older names. */
    long clientMark;
    long serverMark;
    /** FAKE: the message type to synthesize ('1', '3'), or 'E' with {@link #error}. */
    char fake;
    PgError error;
    /** INTERNAL: called with true if it ended without error; {@link #row} receives its DataRows. */
    Consumer<Boolean> done;
    Consumer<List<String>> row;
    /** INTERNAL only: the server answered it with an error. */
    boolean failed;

    Expected(char kind, Action action) {
        this.kind = kind;
        this.action = action;
    }

    /** Messages of the extended protocol: after an error the server skips them up to Sync. */
    boolean extended() {
        return kind == 'P' || kind == 'B' || kind == 'D' || kind == 'C' || kind == 'E';
    }

    /** Ends at the server's ReadyForQuery. */
    boolean endsAtReady() {
        return kind == 'S' || kind == 'Q' || kind == 'F';
    }

    /**
     * A client message relayed as it is, whose answer needs nothing remembered (no names, marks
     * or command): one shared instance per kind, which nothing changes ({@link #failed} is set on
     * INTERNAL ones only). Saves four objects of an extended-protocol transaction's five.
     */
    static Expected relayed(char kind) {
        return switch (kind) {
            case 'P' -> RELAYED_PARSE;
            case 'B' -> RELAYED_BIND;
            case 'D' -> RELAYED_DESCRIBE;
            case 'C' -> RELAYED_CLOSE;
            case 'S' -> RELAYED_SYNC;
            case 'F' -> RELAYED_CALL;
            default -> new Expected(kind, Action.FORWARD);
        };
    }

    private static final Expected RELAYED_PARSE = new Expected('P', Action.FORWARD);
    private static final Expected RELAYED_BIND = new Expected('B', Action.FORWARD);
    private static final Expected RELAYED_DESCRIBE = new Expected('D', Action.FORWARD);
    private static final Expected RELAYED_CLOSE = new Expected('C', Action.FORWARD);
    private static final Expected RELAYED_SYNC = new Expected('S', Action.FORWARD);
    private static final Expected RELAYED_CALL = new Expected('F', Action.FORWARD);

    static Expected fake(char kind, char message) {
        Expected e = new Expected(kind, Action.FAKE);
        e.fake = message;
        return e;
    }

    static Expected fakeError(char kind, PgError error) {
        Expected e = fake(kind, 'E');
        e.error = error;
        return e;
    }
}
