package io.sluice.backend;

import io.netty.channel.Channel;
import io.sluice.backend.ServerConnection.State;
import io.sluice.pool.ServerHandle.Probe;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.Encoders;

import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The queries the pooler runs on one server itself (reset, check, rollback, connect_query, SET
 * of client parameters), one at a time: each goes out as a simple Query, its answer is
 * swallowed up to its ReadyForQuery and counted in server_bytes, and its caller hears whether
 * it ended without error. The connection keeps the parameters and status the answer brings.
 */
public final class InternalQueries {
    private final ServerConnection conn;
    /** Bytes of the replies to Sluice's own queries (parameter SETs, reset, check), for server_bytes. */
    private IntConsumer replyBytes = n -> { };
    private String checkQuery = "";
    private Query running;
    /** "SEVERITY: message" of the last error an internal query got, for the log of its caller. */
    private String lastError = "";

    InternalQueries(ServerConnection conn) {
        this.conn = conn;
    }

    /**
     * Where the bytes of replies to the pooler's own queries go: PgBouncer's server_bytes
     * (SHOW STATS total_sent) counts every packet a server sends, those included.
     */
    public void countReplies(IntConsumer bytes) {
        this.replyBytes = bytes;
    }

    /** server_check_query; {@code <empty>} in the config means an empty query string. */
    public void checkQuery(String q) {
        this.checkQuery = q;
    }

    /**
     * Runs a query the pooler needs (reset, check, SET...) and swallows its results;
     * {@code done} gets true when it ended without error.
     */
    public void run(String sql, Consumer<Boolean> done) {
        runAfter(0, sql, done);
    }

    /**
     * {@link #run} on a server that still owes {@code readiesOwed} answers (each up to its
     * ReadyForQuery) to a client that left: those are swallowed first, so that none of them is
     * taken for this query's end and this query's answer reaches nobody after the release.
     */
    public void runAfter(int readiesOwed, String sql, Consumer<Boolean> done) {
        send(readiesOwed, sql, a -> done.accept(a == QueryAnswer.OK));
    }

    /** {@link #run}, telling an error answer apart from none. */
    public void runAnswered(String sql, Consumer<QueryAnswer> done) {
        send(0, sql, done);
    }

    /**
     * A recycle probe. As PgBouncer: a server that answers server_check_query, even with an
     * error (a check query typed wrong), is alive; a ROLLBACK must succeed.
     */
    void probe(Probe kind, Consumer<Boolean> done) {
        if (kind == Probe.CHECK) {
            send(0, checkQuery, a -> done.accept(a != QueryAnswer.NONE));
        } else {
            send(0, "ROLLBACK", a -> done.accept(a == QueryAnswer.OK));
        }
    }

    /** Sends {@code sql} unless the server is closed, still logging in or running another query of the pooler's. */
    private void send(int readiesOwed, String sql, Consumer<QueryAnswer> done) {
        State back = conn.state();
        if (!conn.isOpen() || back == State.INTERNAL || back == State.LOGIN) {
            done.accept(QueryAnswer.NONE);
            return;
        }
        running = new Query(back, done, readiesOwed + 1);
        conn.moveTo(State.INTERNAL);
        Channel channel = conn.channel();
        channel.config().setAutoRead(true);
        channel.writeAndFlush(Encoders.query(channel.alloc(), sql));
    }

    /** A message of the answer; at the query's own ReadyForQuery the connection moves back, then the caller hears. */
    void read(Frame frame) {
        replyBytes.accept(frame.length());
        byte t = frame.type();
        if (t == 'E') {
            running.failed = true;
            if (BackendDecoding.decode(frame) instanceof BackendMessage.ErrorOrNotice e) {
                lastError = e.severity() + ": " + e.message();
            }
        } else if (t == 'S') {
            conn.rememberParam(frame);
        } else if (t == 'Z') {
            conn.ready(frame);
            if (--running.readies > 0) {
                return;
            }
            Query q = running;
            running = null;
            conn.moveTo(q.back);
            q.done.accept(q.failed ? QueryAnswer.ERROR : QueryAnswer.OK);
        }
    }

    /** "SEVERITY: message" of the last error one of the pooler's own queries got here. */
    public String lastError() {
        return lastError;
    }

    /** The server is gone: the query out, if any, failed. */
    void abandon() {
        Query q = running;
        running = null;
        if (q != null) {
            q.done.accept(QueryAnswer.NONE);
        }
    }

    private static final class Query {
        final State back;
        final Consumer<QueryAnswer> done;
        boolean failed;
        /** ReadyForQuery messages still to come, the query's own last. */
        int readies;

        Query(State back, Consumer<QueryAnswer> done, int readies) {
            this.back = back;
            this.done = done;
            this.readies = readies;
        }
    }
}
