package io.sluice.session;

import io.sluice.log.Level;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrontendDecoding;
import io.sluice.stats.DatabaseStats;

import java.util.List;

/**
 * A client logged into the admin console (database {@code pgbouncer}): simple queries only, one
 * at a time. Reading pauses while a command runs, so its reply goes out before the next one.
 * It is also the {@link ConsoleReply} its commands answer into, encoded onto the client channel.
 */
final class ConsoleSession implements ConsoleReply {
    private final ClientSession session;
    /** The console's own: after login nothing else holds the client's reading off. */
    private final ReadGate gate;
    private final boolean admin;
    private boolean busy;
    private boolean counted;

    ConsoleSession(ClientSession session, boolean admin) {
        this.session = session;
        this.gate = new ReadGate(session.channel());
        this.admin = admin;
    }

    void onFrame(Frame frame) {
        try {
            if (!counted && frame.type() != 'X') {
                countInStats();
            }
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
                    session.context().console().execute(sql, session.user(), admin, this);
                }
                case 'X' -> session.close("client close request");
                default -> refuse(frame.type());
            }
        } finally {
            frame.release();
        }
    }

    /**
     * Anything but a simple query or Terminate, as PgBouncer's admin console answers it: an
     * ERROR and ReadyForQuery (its admin_error), then the FATAL "bad packet" and the close. The
     * ERROR's text is what client libraries show, so it names the extended protocol for Parse,
     * Bind and Execute and the message type's code otherwise. Types no client may send never get
     * here: {@link FrontendFilter} refuses them for every client, as PgBouncer does.
     */
    private void refuse(byte type) {
        error(SqlState.PROTOCOL_VIOLATION, switch (type) {
            case 'P', 'B', 'E' -> "extended query protocol not supported by admin console";
            default -> "unsupported packet type for admin console: " + type;
        });
        session.write(Encoders.readyForQuery(session.channel().alloc(), TransactionStatus.IDLE));
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "bad packet"), "bad packet");
    }

    /**
     * PgBouncer counts console commands in database {@code pgbouncer}'s stats (so in SHOW STATS and
     * SHOW TOTALS), one transaction and one query, but only the first command of each connection:
     * it never ends a console query's timing, so later commands find it still running. Monitoring
     * that scrapes with a new connection each time therefore sees one per scrape on both.
     */
    private void countInStats() {
        counted = true;
        DatabaseStats stats = session.context().stats(ClientSession.CONSOLE_POOL.database());
        stats.add(DatabaseStats.XACTS, 1);
        stats.add(DatabaseStats.QUERIES, 1);
    }

    // ---- ConsoleReply -------------------------------------------------------------------

    @Override
    public void rowDescription(List<String> names, List<Integer> typeOids) {
        session.write(Encoders.rowDescription(session.channel().alloc(), names, typeOids));
    }

    @Override
    public void dataRow(List<String> textValues) {
        session.write(Encoders.dataRow(session.channel().alloc(), textValues));
    }

    @Override
    public void commandComplete(String tag) {
        session.write(Encoders.commandComplete(session.channel().alloc(), tag));
    }

    @Override
    public void notice(String message, String detail) {
        session.write(Encoders.error(session.channel().alloc(), PgError.notice(message, detail)));
    }

    @Override
    public void error(String sqlState, String message) {
        // every console error is PgBouncer's admin_error: a "pooler error" line for the client too
        if (session.context().settings().logPoolerErrors()) {
            ClientLog.line(session, Level.WARNING, "pooler error: " + message);
        }
        session.write(Encoders.error(session.channel().alloc(), PgError.error(sqlState, message)));
    }

    @Override
    public void close() {
        session.kill("admin shutdown", PgError.fatal("57P01", "admin shutdown"));
    }

    /** The console finished a command: ReadyForQuery, then read the next one. */
    @Override
    public void done() {
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
