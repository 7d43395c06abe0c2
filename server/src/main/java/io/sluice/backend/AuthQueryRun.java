package io.sluice.backend;

import io.sluice.auth.AuthQueryReply;
import io.sluice.log.Level;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.Waiter;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.Encoders;

import java.util.List;

/**
 * One auth_query, run as PgBouncer runs it: a server of the auth pool (auth_user in the
 * auth_dbname or the client's database) is checked out like a client would check it out,
 * the query goes in the extended protocol with the user name as its one parameter, and
 * {@link AuthQueryReply} reads the answer. The server goes back to the pool after its
 * ReadyForQuery when the answer was usable; an unusable one (an error, a null user name, a wrong
 * column count) closes it with that reason as its "closing because" line, as PgBouncer's
 * handle_auth_query_response does, so operators find the same line. Event loop only.
 */
public final class AuthQueryRun implements Waiter, ServerListener {
    /** The client that waits for the answer: receives the outcome exactly once, on the event loop. */
    public interface Callback {
        /** False once the client has gone (the pool then drops the query before it runs). */
        boolean waiting();

        void answered(AuthQueryReply.Outcome outcome);

        /** No server could be had for the query (the pool's own words). */
        void failed(CheckoutFailure failure);
    }

    private final String sql;
    private final String user;
    private final Callback callback;
    private final AuthQueryReply reply = new AuthQueryReply();
    private Lease lease;
    private ServerConnection server;
    private boolean finished;

    public AuthQueryRun(String sql, String user, Callback callback) {
        this.sql = sql;
        this.user = user;
        this.callback = callback;
    }

    // ---- Waiter ---------------------------------------------------------------------------

    @Override
    public boolean isAlive() {
        return callback.waiting();
    }

    @Override
    public void granted(Lease l) {
        lease = l;
        server = ServerConnection.of(l.server());
        server.link(this, "");
        var ch = server.channel();
        ch.writeAndFlush(Encoders.extendedQuery(ch.alloc(), sql, List.of(user)));
    }

    @Override
    public void failed(CheckoutFailure failure) {
        finished = true;
        callback.failed(failure);
    }

    // ---- ServerListener -------------------------------------------------------------------

    @Override
    public void onServerFrame(Frame frame) {
        try {
            if (!finished) {
                read(frame);
            }
        } catch (ProtocolException e) {
            reply.unexpected();
        } finally {
            frame.release();
        }
        if (!finished && reply.broken()) {
            AuthQueryReply.Outcome outcome = reply.outcome();
            end(((AuthQueryReply.Failed) outcome).reason(), outcome);
        }
    }

    private void read(Frame frame) {
        switch (frame.type()) {
            case 'T' -> reply.columns(BackendDecoding.columnCount(frame));
            case 'D' -> BackendDecoding.dataRows(frame).forEach(reply::row);
            case 'E' -> {
                reply.error();
                if (BackendDecoding.decode(frame) instanceof BackendMessage.ErrorOrNotice e) {
                    server.log(Level.WARNING, "auth_query failed: "
                            + e.sqlState() + " " + e.message());
                }
            }
            case '1', '2', 'C', 'N', 'S' -> { }
            default -> reply.unexpected();
        }
    }

    @Override
    public void onReady(TransactionStatus status, Frame frame) {
        frame.release();
        if (finished) {
            return;
        }
        if (status != TransactionStatus.IDLE) {
            end("unexpected response from auth_query", new AuthQueryReply.Failed("unexpected response from auth_query"));
            return;
        }
        AuthQueryReply.Outcome outcome = reply.outcome();
        if (outcome instanceof AuthQueryReply.Failed f) {
            end(f.reason(), outcome); // PgBouncer closes the server with the reason as its log line
            return;
        }
        finished = true;
        server.unlink();
        lease.release();
        callback.answered(outcome);
    }

    /** Closes the server (its state is unknown) and reports. */
    private void end(String reason, AuthQueryReply.Outcome outcome) {
        finished = true;
        server.unlink();
        lease.discard(reason);
        callback.answered(outcome);
    }

    @Override
    public void onServerReadComplete() {
    }

    @Override
    public void onServerLost(String reason) {
        if (!finished) {
            finished = true;
            lease.discard(reason);
            callback.answered(new AuthQueryReply.Failed(reason));
        }
    }

    @Override
    public boolean clientWritable() {
        return true;
    }

    @Override
    public void onServerWritable(boolean writable) {
    }
}
