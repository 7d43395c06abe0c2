package io.sluice.session;

import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.ExtendedCodec;
import io.sluice.session.state.SqlCommand;

/**
 * The server → client half of {@link StatementRouter}: matches each reply to the head of the
 * queue of what is owed, relays or swallows it, answers what Sluice owes in its place (a local
 * ParseComplete or CloseComplete is sent only once everything before it was answered), and
 * feeds completed statements to the session journal.
 *
 * <p>After an error the server skips extended-protocol messages up to Sync; so does this queue,
 * undoing what those messages registered (a Parse that never ran names nothing) and dropping
 * local answers the client would not have got from PostgreSQL either.
 */
final class ReplyRouter {
    private static final String STALE_PLAN = "cached plan must not change result type";
    /** The tags that clear every prepared statement, whatever statement the server answers with them. */
    private static final String DEALLOCATE_ALL = "DEALLOCATE ALL";
    private static final String DISCARD_ALL = "DISCARD ALL";

    private final StatementRouter r;
    /** The last CommandComplete tag read: the next one is mostly the same, and then not decoded again. */
    private String lastTag;

    ReplyRouter(StatementRouter router) {
        this.r = router;
    }

    /**
     * One server message; takes ownership.
     *
     * @return true for the ReadyForQuery that answers the client's own Sync, Query or FunctionCall
     *         (the relay counts those); false for everything else
     */
    boolean fromServer(Frame f) {
        Expected head = r.queue.peekFirst();
        byte t = f.type();
        switch (t) {
            case 'D', 'd', Frame.CONTINUATION, 'N', 'c', 'G', 'H', 'W', 'V' -> {
                if (head != null && head.action != Expected.Action.FORWARD) {
                    if (t == 'D' && head.row != null) {
                        BackendDecoding.dataRows(f).forEach(head.row);
                    }
                    f.release();
                } else {
                    relay(f);
                }
                return false;
            }
            case 'A', 'S' -> {
                relay(f); // notifications and parameter changes belong to the client whatever runs
                return false;
            }
            case 'Z' -> {
                return ready(f, head);
            }
            case 'E' -> {
                error(f, head);
                return false;
            }
            default -> {
                return reply(f, head, t);
            }
        }
    }

    private boolean reply(Frame f, Expected head, byte t) {
        if (head == null) {
            r.owner.desync("unexpected '" + (char) t + "' from server");
            f.release();
            return false;
        }
        boolean done = switch (t) {
            case '1' -> expect(head, 'P', t);
            case '2' -> expect(head, 'B', t);
            case '3' -> expect(head, 'C', t);
            case 't' -> false;
            case 'T', 'n' -> head.kind == 'D';
            case 'C' -> {
                completed(head, f);
                yield head.kind == 'E';
            }
            case 'I' -> head.kind == 'E';
            case 's' -> {
                // a row limit suspended the portal (asyncpg's fetchval): the statement ran, so
                // what it may have created is asked about as if it had completed
                if (head.kind == 'E' && head.action != Expected.Action.INTERNAL && head.command.probe()) {
                    r.journal.probeLater();
                }
                yield head.kind == 'E';
            }
            default -> false;
        };
        if (head.action == Expected.Action.FORWARD) {
            relay(f);
        } else {
            f.release();
        }
        if (done) {
            r.queue.pollFirst();
            emitFakes();
        }
        return false;
    }

    private boolean expect(Expected head, char kind, byte t) {
        if (head.kind != kind) {
            r.owner.desync("'" + (char) t + "' from server while '" + head.kind + "' was owed");
        }
        return true;
    }

    private void completed(Expected head, Frame f) {
        if (head.action == Expected.Action.INTERNAL) {
            return;
        }
        SqlCommand cmd;
        if (head.kind == 'Q') {
            cmd = head.next < head.commands.size() ? head.commands.get(head.next) : SqlCommand.NONE;
            head.next++;
        } else {
            cmd = head.command;
        }
        if (cmd.inert() && !mayClearStatements(f)) {
            return; // the journal has nothing to do with it: the tag (most answers' only string) stays unread
        }
        lastTag = ExtendedCodec.firstString(f, 'C', lastTag);
        r.journal.completed(cmd, lastTag, r.serverState);
        if (lastTag.equals(DEALLOCATE_ALL) || lastTag.equals(DISCARD_ALL)) {
            r.statements.clearUpTo(head.clientMark);
            r.serverState.statements().clearUpTo(head.serverMark);
            r.passedThrough.clear();
        }
    }

    /**
     * Whether a CommandComplete may be DEALLOCATE ALL's or DISCARD ALL's, which clear the
     * statements whatever the classifier took the statement for (the server's tag is what
     * counts): its tag is as long as one of them and starts with their D.
     */
    private static boolean mayClearStatements(Frame f) {
        int tagLength = f.length() - 6; // the header and the tag's NUL
        return (tagLength == DEALLOCATE_ALL.length() || tagLength == DISCARD_ALL.length())
                && f.buffer().getByte(f.bodyStart()) == 'D';
    }

    private void error(Frame f, Expected head) {
        if (head == null) {
            relay(f); // e.g. the server shutting down between queries
            return;
        }
        if (head.serverName != null && (head.kind == 'B' || head.kind == 'D')) {
            if (BackendDecoding.decode(f) instanceof BackendMessage.ErrorOrNotice e
                    && "0A000".equals(e.sqlState()) && e.message().contains(STALE_PLAN)) {
                // after DDL the shared plan no longer fits: pass the error on once and prepare
                // the statement afresh on its next use
                r.serverState.statements().stale(head.serverName);
            }
        }
        if (head.action == Expected.Action.INTERNAL) {
            f.release();
        } else {
            relay(f);
            r.journal.error();
        }
        if (head.action == Expected.Action.INTERNAL) {
            head.failed = true; // a relayed one may be shared (Expected.relayed)
        }
        if (!head.extended()) {
            return; // a Query or Sync ends at its ReadyForQuery
        }
        undo(r.queue.pollFirst());
        while (!r.queue.isEmpty() && r.queue.peekFirst().extended()) {
            undo(r.queue.pollFirst());
        }
    }

    /** A message the server skipped or failed: take back what sending it registered. */
    private void undo(Expected e) {
        if (e.kind == 'P') {
            if (e.clientName != null) {
                r.statements.removeIf(e.clientName, e.entry);
            }
            if (e.key != null) {
                r.serverState.statements().forget(e.key, e.serverName);
            }
        } else if (e.kind == 'C' && e.action == Expected.Action.INTERNAL && e.serverName != null && !e.failed) {
            r.serverState.statements().closeLater(e.serverName);
        }
    }

    private boolean ready(Frame f, Expected head) {
        if (head == null || !head.endsAtReady()) {
            r.owner.desync("ReadyForQuery from server while " + (head == null ? "nothing" : "'" + head.kind + "'")
                    + " was owed");
            f.release();
            return false;
        }
        r.queue.pollFirst();
        if (head.action == Expected.Action.INTERNAL) {
            f.release();
            head.done.accept(!head.failed);
            emitFakes();
            return false;
        }
        TransactionStatus status = BackendDecoding.readyStatus(f);
        boolean probe = r.journal.ready(status, r.serverState);
        if (status == TransactionStatus.IDLE) {
            r.portals.clear();
        }
        relay(f);
        emitFakes();
        if (probe && r.queue.isEmpty()) {
            r.probe();
        } else if (probe) {
            r.journal.probeLater();
        }
        return true;
    }

    private void relay(Frame f) {
        r.clientRelay.relay(f);
    }

    /** Sends every answer of Sluice's own that has reached the head of the queue. */
    void emitFakes() {
        Expected e;
        while ((e = r.queue.peekFirst()) != null && e.action == Expected.Action.FAKE) {
            r.queue.pollFirst();
            r.toClient(switch (e.fake) {
                case 'E' -> Encoders.error(r.alloc, e.error);
                default -> ExtendedCodec.empty(r.alloc, e.fake);
            });
        }
    }
}
