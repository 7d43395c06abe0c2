package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.backend.ServerListener;
import io.sluice.config.PoolMode;
import io.sluice.log.Log;
import io.sluice.proto.codec.RunJoiner;
import io.sluice.pool.Lease;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.SqlState;
import io.sluice.proto.TransactionStatus;
import io.sluice.stats.DatabaseStats;

import java.util.ArrayDeque;

/**
 * The relay between a logged-in client and the server it leases. Owns both directions of
 * backpressure: the server stops reading while the client is not writable, and the client stops
 * reading while the server is not writable (COPY FROM STDIN into a stalled backend) or while it
 * queues more than {@link #PENDING_LIMIT} waiting for a server. Checks a server out on the first
 * message ({@link ServerCheckout}), counts Sync/Query boundaries, and releases per
 * {@link ReleasePolicy}. In transaction and statement pooling every message goes through a
 * {@link StatementRouter}, which keeps the client's session (named statements, SET, pins) whole
 * across servers. Event loop only.
 */
final class Relay extends ClientSide implements StatementRouter.Owner {
    /** Bytes a waiting client may queue before reading stops: it has usually sent its whole
     *  request, and pausing on every wait would cost two epoll_ctl calls per transaction. */
    static final long PENDING_LIMIT = 64 * 1024;
    /** PgBouncer's reason for servers (and clients) closed because their database changed. */
    static final String FAST_CLOSE = "database configuration changed";
    /** PgBouncer's reason when a server refuses a client's startup parameter (varcache_apply). */
    static final String INVALID_PARAMETER = "invalid server parameter";
    /** PgBouncer's reason when a statement-pooling client opens a transaction. */
    static final String NO_TRANSACTION_BLOCKS = "transaction blocks not allowed in statement pooling mode";

    private final Route route;
    private final ClientParams params;
    private final DatabaseStats stats;
    private final RelayTimeouts timeouts;
    private final ReleasePolicy policy;
    /** Null in session pooling, where the server never changes under the client. */
    private final StatementRouter router;
    private final PinGuard pins;
    private final ServerCheckout checkout;
    private final ParameterSync sync;
    /**
     * Sized for an extended-protocol query (Parse, Bind, Describe, Execute, Sync) without growing;
     * the default's 16 slots, in every client, add up. It grows for more.
     */
    private final ArrayDeque<Frame> pending = new ArrayDeque<>(8);
    private long pendingBytes;
    private Lease lease;
    private ServerConnection server;
    private int pendingSyncs;
    private boolean unsynced;
    /** A checkout asked for inside a client read: the read's end flushes what attach() writes. */
    private boolean checkoutInRead;
    private long linkedAt;
    private final QueryTimes times;

    Relay(ClientSession session, Route route, ClientParams params, DatabaseStats stats, SessionTimers timers) {
        super(session);
        this.route = route;
        this.params = params;
        this.stats = stats;
        this.timeouts = new RelayTimeouts(session, route, timers, this::serverNotReady, this::timedOut);
        this.sync = new ParameterSync(params, this::server, this::sendPending, this::refuseParameters);
        this.checkout = new ServerCheckout(session, route.poolKey(), timeouts, this::attach);
        this.policy = new ReleasePolicy(route.mode(), route.resetAlways());
        this.router = route.mode() == PoolMode.SESSION ? null : new StatementRouter(clientOut, clientVoid, clientRelay,
                this, stats, route.maxPreparedStatements(), session.context().settings().trackedParameters());
        this.pins = new PinGuard(session, route);
        this.times = new QueryTimes(session, session.context().clock(), stats);
    }

    @Override
    ServerConnection server() {
        return server;
    }

    /** Named protocol-level statements the client has (SHOW CLIENTS prepared_statements). */
    int preparedStatements() {
        return router == null ? 0 : router.statements.size();
    }

    /** Why the client keeps its server between transactions, or null when it does not. */
    String pinReason() {
        return router != null && router.pinned() ? router.pinReason() : null;
    }

    /** When the query in progress (waiting for a server or running) began; 0 when none is. */
    long queryStartedAt() {
        return times.queryStartedAt();
    }

    /** A query or an unsynced extended-protocol batch is in flight on the server. */
    boolean busy() {
        return server != null && (pendingSyncs > 0 || unsynced || sync.trying());
    }

    /** PgBouncer's "not ready": the linked server owes the client an answer or is in a transaction. */
    private boolean serverNotReady() {
        return busy() || server != null && server.inTransaction();
    }

    // ---- client -> server -------------------------------------------------------------------

    /** A frame from the client (not Terminate); takes ownership. */
    void fromClient(Frame frame) {
        timeouts.clientSent();
        if (stats != null) {
            stats.clientMessage(frame.type(), frame.length());
        }
        times.messageArrived();
        if (session.state() != ClientSession.State.ACTIVE || sync.trying()) {
            // waiting for a server, or its parameters are being synced: keep the client's order
            pending.add(frame);
            pendingBytes += frame.length();
            if (pendingBytes > PENDING_LIMIT) {
                gate.hold(ReadGate.WAIT_QUEUE);
            }
            if (server == null && !checkout.waiting()) {
                checkoutInRead = true;
                try {
                    checkout.ask();
                } finally {
                    checkoutInRead = false; // a later grant (a server coming back) flushes itself
                }
            }
            return;
        }
        forward(frame);
    }

    /** End of one read burst from the client. */
    void clientReadComplete() {
        if (server != null && session.state() == ClientSession.State.ACTIVE) {
            server.flush();
        }
        if (router != null && router.wroteClient) {
            router.wroteClient = false;
            clientOut.flush();
        }
    }

    private void forward(Frame frame) {
        timeouts.forwarded();
        switch (frame.type()) {
            case 'Q', 'S', 'F' -> {
                pendingSyncs++;
                unsynced = false;
                timeouts.queryForwarded();
            }
            case 'd', 'c', 'f' -> unsynced |= pendingSyncs == 0; // outside a COPY: not ready, as PgBouncer
            case Frame.CONTINUATION -> { }
            default -> unsynced = true;
        }
        if (router != null) {
            try {
                router.toServer(frame);
            } catch (ProtocolException e) {
                // a message the router will not pass on: refuse the client, as at its own read
                if (frame.refCnt() > 0) {
                    frame.release();
                }
                session.refuse(e);
                return;
            }
        } else {
            server.write(frame);
        }
        if (!server.isWritable()) {
            // The server takes no more for now: stop reading the client until it drains. Hold
            // before flushing: a flush that drains the buffer reports writability at once.
            gate.hold(ReadGate.SERVER_FULL);
            server.flush();
        }
    }

    /** The pool granted the {@link #checkout}: the server is linked and gets what the client queued. */
    private void attach(Lease l) {
        lease = l;
        server = ServerConnection.of(l.server());
        timeouts.linked();
        long now = timeouts.now();
        if (stats != null) {
            stats.assignment((now - checkout.waitStart()) / 1000);
        }
        server.link(this, params.applicationName());
        linkedAt = now;
        boolean held = sync.start(server);
        if (router != null) {
            router.attached(server);
        }
        session.moveTo(ClientSession.State.ACTIVE);
        if (held) {
            // the client's messages wait for the SETs' answer, under query_timeout as in PgBouncer
            timeouts.forwarded();
            server.flush();
            return;
        }
        sendPending();
    }

    /** As PgBouncer's varcache_apply failure: the server and the client both close. */
    private void refuseParameters(ServerConnection s) {
        Log.global().error("varcache_apply failed: " + s.internal().lastError()); // PgBouncer's line has no S- prefix
        closeServerThenClient(INVALID_PARAMETER);
    }

    /** A client timeout ran out: a linked server closes first, under the same words (PgBouncer's janitor). */
    private void timedOut(String reason) {
        if (server != null) {
            closeServerThenClient(reason);
        } else {
            session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, reason), reason);
        }
    }

    /**
     * Closes the server under {@code reason}, then the client with {@code FATAL 08P01} in the
     * same words: PgBouncer's order, so its log names the reason on the server's line too.
     */
    private void closeServerThenClient(String reason) {
        ServerConnection s = server;
        Lease l = lease;
        server = null;
        lease = null;
        if (router != null) {
            pins.left(); // the session's own close() finds no server and would skip this
            router.detached();
        }
        s.unlink();
        l.discard(reason);
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, reason), reason);
    }

    /** The client's messages queued while it waited go to the server now. */
    private void sendPending() {
        Frame f;
        while ((f = pending.poll()) != null) {
            forward(f);
        }
        if (server == null) {
            return; // a refused message closed the session
        }
        pendingBytes = 0;
        if (!checkoutInRead) { // else the read's rest follows, and clientReadComplete() sends all in one write
            server.flush();
        }
        gate.release(ReadGate.WAIT_QUEUE);
    }

    // ---- server -> client (ServerListener) ----------------------------------------------------

    @Override
    public void onServerFrame(Frame frame) {
        if (stats != null) {
            stats.add(DatabaseStats.SENT, frame.length());
        }
        if (frame.type() == 'S') {
            params.serverReported(frame);
        }
        if (router != null) {
            router.replies.fromServer(frame);
            return;
        }
        clientRelay.relay(frame);
    }

    @Override
    public void onReady(TransactionStatus status, Frame frame) {
        if (policy.refusesTransactionBlock(status)) {
            frame.release();
            // the statement's own reply (BEGIN) came in the same read: PgBouncer never sends it
            RunJoiner.discardPending(session.channel());
            closeServerThenClient(NO_TRANSACTION_BLOCKS);
            return;
        }
        if (router != null) {
            if (stats != null) {
                stats.add(DatabaseStats.SENT, frame.length());
            }
            if (!router.replies.fromServer(frame)) {
                return; // the end of a query of Sluice's own
            }
        } else {
            onServerFrame(frame);
        }
        if (pendingSyncs > 0) {
            pendingSyncs--;
        }
        if (pendingSyncs > 0 || unsynced) {
            return;
        }
        long now = timeouts.now();
        times.queryEnded(now);
        timeouts.queryDone(status == TransactionStatus.IDLE);
        if (status == TransactionStatus.IDLE) {
            long began = times.transactionEnded(now, linkedAt);
            // the pool's budgets want how long the transaction held its server
            lease.transactionDone(now - Math.max(linkedAt, began));
            if (policy.releaseAt(status) && !holdsServer()) {
                clientOut.flush();
                releaseServer();
                return;
            }
            if (closeIfServerClosing()) {
                return;
            }
        }
        armIdleTimers();
    }

    /** The router keeps the server: a probe is out or the session is pinned (within max_pinned_servers). */
    private boolean holdsServer() {
        if (router == null) {
            return false;
        }
        if (!router.probing && !pins.update(router)) {
            return true; // refused beyond max_pinned_servers: the session is closing and settled the server
        }
        return router.holdsServer();
    }

    @Override
    public void probeDone() {
        if (server == null || serverNotReady()) {
            return; // the client went on; its next ReadyForQuery decides
        }
        if (policy.releaseAt(TransactionStatus.IDLE) && !holdsServer() && server != null) {
            clientOut.flush();
            releaseServer();
        }
    }

    @Override
    public void desync(String why) {
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "server conn crashed?"), "protocol out of step: " + why);
    }

    @Override
    public void onServerReadComplete() {
        clientOut.flush();
    }

    @Override
    public void onServerLost(String reason) {
        sync.stop();
        if (lease != null) {
            lease.discard(reason);
        }
        lease = null;
        server = null;
        gate.release(ReadGate.SERVER_FULL);
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "server conn crashed?"), "server conn crashed?");
    }

    // ---- release ------------------------------------------------------------------------------

    /** Gives the server back at a transaction (or statement) end. */
    private void releaseServer() {
        ServerConnection s = server;
        Lease l = lease;
        server = null;
        lease = null;
        gate.release(ReadGate.SERVER_FULL);
        session.moveTo(ClientSession.State.IDLE);
        if (router != null) {
            router.detached();
        }
        s.unlink();
        ServerReturn.whenNoCancel(session.context().cancels(), s, l, resetQuery());
        if (!pending.isEmpty()) {
            checkout.ask();
        } else {
            armIdleTimers();
        }
    }

    /** server_reset_query when the policy runs it on return, else null. */
    private String resetQuery() {
        return policy.runsResetQuery() ? route.resetQuery() : null;
    }

    void armIdleTimers() {
        timeouts.idle(server != null, server != null && server.inTransaction());
    }

    /**
     * server_fast_close: an idle session server marked close_needed (RECONNECT, a reload that
     * changed its database) is closed now instead of when its client leaves, and the client is
     * disconnected with it, as PgBouncer does. True when it did so.
     */
    boolean closeIfServerClosing() {
        if (server == null || serverNotReady() || !lease.closeNeeded()
                || !session.context().settings().serverFastClose()) {
            return false;
        }
        closeServerThenClient(FAST_CLOSE);
        return true;
    }

    /** The client went away: drop its queue and the checkout, and settle the server per policy. */
    void close() {
        boolean wasTrying = sync.trying();
        sync.stop();
        timeouts.cancelAll();
        checkout.callOff();
        Frame f;
        while ((f = pending.poll()) != null) {
            f.release();
        }
        if (server == null) {
            return;
        }
        ServerConnection s = server;
        Lease l = lease;
        server = null;
        lease = null;
        boolean pinned = false;
        int owed = 0;
        if (router != null) {
            pins.left();
            // a probe still out may find state: clean the server as if pinned, after its answer
            owed = router.readiesOwed();
            pinned = router.pinned() || router.probing || owed > 0;
            router.detached();
        }
        s.unlink();
        switch (policy.onClientGone(pendingSyncs > 0 || unsynced || wasTrying, s.inTransaction(), s.isOpen())) {
            case RETURN -> {
                if (pinned) {
                    PinGuard.discardSession(s, l, owed);
                } else {
                    ServerReturn.whenNoCancel(session.context().cancels(), s, l, resetQuery());
                }
            }
            case CLOSE -> l.discard(ReleasePolicy.NOT_READY);
        }
    }
}
