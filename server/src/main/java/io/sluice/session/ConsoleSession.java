package io.sluice.session;

import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrontendDecoding;

/**
 * A client logged into the admin console (database {@code pgbouncer}): simple queries only, one
 * at a time. Reading pauses while a command runs, so its reply goes out before the next one.
 */
final class ConsoleSession {
    private final ClientSession session;
    private final ReadGate gate;
    private final boolean admin;
    private boolean busy;

    ConsoleSession(ClientSession session, ReadGate gate, boolean admin) {
        this.session = session;
        this.gate = gate;
        this.admin = admin;
    }

    boolean busy() {
        return busy;
    }

    void onFrame(Frame frame) {
        try {
            switch (frame.type()) {
                case 'Q' -> {
                    if (busy) {
                        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                                "pipelined console commands are not supported"), "console pipelining");
                        return;
                    }
                    String sql = FrontendDecoding.query(frame);
                    busy = true;
                    session.moveTo(ClientSession.State.ACTIVE);
                    gate.hold(ReadGate.CONSOLE);
                    session.context().console().execute(sql, session.user(), admin, new ConsoleWriter(session));
                }
                case 'X' -> session.close("client close request");
                default -> session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                        "extended query protocol not supported by admin console"), "bad console packet");
            }
        } finally {
            frame.release();
        }
    }

    /** The console finished a command: ReadyForQuery, then read the next one. */
    void done() {
        busy = false;
        if (session.state() == ClientSession.State.CLOSED) {
            return;
        }
        session.moveTo(ClientSession.State.IDLE);
        var ch = session.channel();
        if (ch.isActive()) {
            ch.writeAndFlush(Encoders.readyForQuery(ch.alloc(), TransactionStatus.IDLE));
            gate.release(ReadGate.CONSOLE);
        }
    }
}
