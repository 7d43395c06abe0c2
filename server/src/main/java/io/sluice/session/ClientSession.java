package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.backend.ServerConnection;
import io.sluice.backend.ServerListener;
import io.sluice.config.PoolMode;
import io.sluice.log.Log;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.Waiter;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.SqlState;
import io.sluice.proto.StartupPacket;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.stats.DatabaseStats;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client connection: login (delegated to {@link ClientLogin}), then either the admin
 * console or the relay to a leased server, with release per pool mode. See package-info for
 * the threading rule.
 */
public final class ClientSession extends ChannelInboundHandlerAdapter implements ServerListener {
    private static final AtomicLong IDS = new AtomicLong(1);

    /** PgBouncer's client states as SHOW CLIENTS prints them. */
    public enum State { LOGIN, IDLE, WAITING, ACTIVE, CLOSED }

    private final long id = IDS.getAndIncrement();
    private final SessionContext ctx;
    private final boolean unixSocket;
    private final long connectTimeMillis = System.currentTimeMillis();
    private Channel channel;
    private State state = State.LOGIN;
    private ClientLogin login;
    private Route route;
    private boolean console;
    private boolean consoleAdmin;
    private boolean consoleBusy;
    private String user = "";
    private String database = "";
    private String countedDatabase;
    private String countedUser;
    private int cancelPid;
    private int cancelKey;
    private ClientParams params;
    private DatabaseStats stats;

    // relay state
    private final ArrayDeque<Frame> pending = new ArrayDeque<>();
    private Lease lease;
    private ServerConnection server;
    private PendingCheckout waiting;
    private int pendingSyncs;
    private boolean unsynced;
    private long linkedAtNanos;
    private long queryStartNanos;
    private long waitStartNanos;
    private long requestTimeMillis;
    private ScheduledFuture<?> timer;
    private boolean closing;
    private boolean readPaused;
    private long pendingBytes;
    /**
     * Bytes a client may queue while it waits for a server before Sluice stops reading from it.
     * A waiting client normally has sent its whole request already; pausing on every wait would
     * cost two epoll_ctl calls per transaction under contention.
     */
    private static final long PENDING_LIMIT = 64 * 1024;

    public ClientSession(SessionContext ctx, boolean unixSocket) {
        this.ctx = ctx;
        this.unixSocket = unixSocket;
    }

    // ---- identity, for SHOW CLIENTS and logs --------------------------------------------------

    public long id() {
        return id;
    }

    public State state() {
        return state;
    }

    public String user() {
        return user;
    }

    public String database() {
        return database;
    }

    public long connectTimeMillis() {
        return connectTimeMillis;
    }

    public long requestTimeMillis() {
        return requestTimeMillis;
    }

    public ServerConnection server() {
        return server;
    }

    public long waitingSinceNanos() {
        return state == State.WAITING ? waitStartNanos : 0;
    }

    public String applicationName() {
        return params == null ? "" : params.applicationName();
    }

    public String remoteAddress() {
        return channel != null && channel.remoteAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress() : "unix";
    }

    public int remotePort() {
        return channel != null && channel.remoteAddress() instanceof InetSocketAddress a
                ? a.getPort() : ctx.settings().listenPort();
    }

    public String localAddress() {
        return channel != null && channel.localAddress() instanceof InetSocketAddress a
                ? a.getAddress().getHostAddress() : "unix";
    }

    public int localPort() {
        return channel != null && channel.localAddress() instanceof InetSocketAddress a
                ? a.getPort() : ctx.settings().listenPort();
    }

    public boolean isConsole() {
        return console;
    }

    int cancelPid() {
        return cancelPid;
    }

    String countedDatabase() {
        return countedDatabase;
    }

    String countedUser() {
        return countedUser;
    }

    boolean unixSocket() {
        return unixSocket;
    }

    Channel channel() {
        return channel;
    }

    SessionContext context() {
        return ctx;
    }

    // ---- channel events ---------------------------------------------------------------------

    @Override
    public void channelActive(ChannelHandlerContext c) {
        channel = c.channel();
        ctx.clients().add(this);
        login = new ClientLogin(this);
        if (ctx.clients().total() > ctx.settings().maxClientConn()) {
            login.refuseWhenStarted(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                    "no more connections allowed (max_client_conn)"));
        }
        long t = ctx.settings().clientLoginTimeout();
        if (t > 0) {
            timer = channel.eventLoop().schedule(() -> {
                if (state == State.LOGIN) {
                    fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "client_login_timeout"), "client_login_timeout");
                }
            }, t, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof StartupPacket p) {
            login.onStartupPacket(p);
            return;
        }
        Frame frame = (Frame) msg;
        if (state == State.LOGIN) {
            login.onFrame(frame);
        } else if (console) {
            consoleFrame(frame);
        } else {
            clientFrame(frame);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
        if (server != null && state == State.ACTIVE) {
            server.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext c) {
        if (server != null) {
            server.clientWritabilityChanged(channel.isWritable());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        if (state != State.CLOSED) {
            cleanup("client close request");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        Throwable t = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (t instanceof ProtocolException pe) {
            fail(pe.error(), pe.getMessage());
        } else if (t instanceof java.io.IOException) {
            cleanup("client unexpected eof");
        } else {
            Log.global().error("C-" + Long.toHexString(id) + ": unexpected error: " + t);
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "internal error"), "internal error: " + t);
        }
    }

    // ---- login completion (called by ClientLogin) ----------------------------------------

    void startTimerCancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    void identify(String database, String user) {
        this.database = database;
        this.user = user;
    }

    void countLogin() {
        countedDatabase = database;
        countedUser = user;
        ctx.clients().loggedIn(this, database, user);
    }

    /** Login finished: greet the client and start serving. */
    void loggedIn(Route r, boolean isConsole, boolean admin, ClientParams p, java.util.Map<String, String> welcome) {
        startTimerCancel();
        this.route = r;
        this.console = isConsole;
        this.consoleAdmin = admin;
        this.params = p;
        this.stats = isConsole ? null : ctx.stats(database);
        cancelPid = ctx.clients().allocateCancelPid(this);
        cancelKey = ctx.clients().cancelSecret(cancelPid, this);
        var alloc = channel.alloc();
        channel.write(Encoders.authentication(alloc, 0, new byte[0]));
        p.greeting(welcome).forEach((k, v) -> channel.write(Encoders.parameterStatus(alloc, k, v)));
        channel.write(Encoders.backendKeyData(alloc, cancelPid, cancelKey));
        channel.writeAndFlush(Encoders.readyForQuery(alloc, TransactionStatus.IDLE));
        state = State.IDLE;
        if (ctx.settings().logConnections()) {
            log("login attempt: db=" + database + " user=" + user + " tls=no");
        }
        armIdleTimers();
    }

    /** A CancelRequest for this session arrived on another connection. */
    void cancelRequested(int key) {
        if (key != cancelKey) {
            return;
        }
        if (server != null && (pendingSyncs > 0 || unsynced)) {
            ctx.forwardCancel(server);
        }
    }

    // ---- admin console ----------------------------------------------------------------------

    private void consoleFrame(Frame frame) {
        try {
            if (frame.type() == 'Q') {
                if (consoleBusy) {
                    fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "pipelined console commands are not supported"), "console pipelining");
                    return;
                }
                String sql = io.sluice.proto.codec.FrontendDecoding.query(frame);
                consoleBusy = true;
                channel.config().setAutoRead(false);
                ctx.console().execute(sql, user, consoleAdmin, new ConsoleWriter(this));
            } else if (frame.type() == 'X') {
                cleanup("client close request");
            } else {
                fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                        "extended query protocol not supported by admin console"), "bad console packet");
            }
        } finally {
            frame.release();
        }
    }

    void consoleDone() {
        consoleBusy = false;
        if (channel.isActive()) {
            channel.writeAndFlush(Encoders.readyForQuery(channel.alloc(), TransactionStatus.IDLE));
            channel.config().setAutoRead(true);
        }
    }

    // ---- relay: client -> server ------------------------------------------------------------

    private void clientFrame(Frame frame) {
        byte t = frame.type();
        requestTimeMillis = System.currentTimeMillis();
        if (t == 'X') {
            frame.release();
            cleanup("client close request");
            return;
        }
        if (t == 'Q' && ctx.settings().disablePqexec()) {
            frame.release();
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "PQexec disallowed"), "PQexec disallowed");
            return;
        }
        if (stats != null) {
            stats.add(DatabaseStats.RECEIVED, frame.length());
            if (t == 'P') {
                stats.add(DatabaseStats.CLIENT_PARSE, 1);
            } else if (t == 'B') {
                stats.add(DatabaseStats.BIND, 1);
            }
        }
        if (state != State.ACTIVE) {
            // waiting for a server, or its parameters are being synced: keep the client's order
            pending.add(frame);
            pendingBytes += frame.length();
            if (pendingBytes > PENDING_LIMIT && !readPaused) {
                // a client that keeps sending while it waits: stop reading until it is served
                readPaused = true;
                channel.config().setAutoRead(false);
            }
            if (server == null && waiting == null) {
                requestServer();
            }
            return;
        }
        forward(frame);
    }

    private void forward(Frame frame) {
        byte t = frame.type();
        switch (t) {
            case 'Q', 'S', 'F' -> {
                if (pendingSyncs == 0) {
                    queryStartNanos = System.nanoTime();
                }
                pendingSyncs++;
                unsynced = false;
                armQueryTimer();
            }
            case 'd', 'c', 'f' -> { }
            default -> unsynced = true;
        }
        server.write(frame);
    }

    private void requestServer() {
        state = State.WAITING;
        cancelTimer();
        waitStartNanos = System.nanoTime();
        PendingCheckout w = new PendingCheckout();
        waiting = w;
        ctx.checkout(route.poolKey(), w);
    }

    /** The pool's answer to {@link #requestServer()}. */
    private final class PendingCheckout implements Waiter {
        boolean alive = true;

        @Override
        public boolean isAlive() {
            return alive && state != State.CLOSED;
        }

        @Override
        public void granted(Lease l) {
            waiting = null;
            if (!isAlive()) {
                l.release();
                return;
            }
            attach(l);
        }

        @Override
        public void failed(CheckoutFailure f) {
            waiting = null;
            failCheckout(f);
        }
    }

    /** The pool could not give a server: the client gets the engine's text (PgBouncer's words). */
    void failCheckout(CheckoutFailure f) {
        if (state == State.CLOSED) {
            return;
        }
        String sqlState = f.sqlState() == null ? SqlState.PROTOCOL_VIOLATION : f.sqlState();
        fail(PgError.fatal(sqlState, f.message()), f.message());
    }

    private void attach(Lease l) {
        lease = l;
        server = (ServerConnection) l.server();
        long waited = System.nanoTime() - waitStartNanos;
        if (stats != null) {
            stats.assignment(waited / 1000);
        }
        server.link(this, params.applicationName());
        server.markRequest();
        linkedAtNanos = System.nanoTime();
        String sync = params.syncQuery(server.params());
        if (sync != null) {
            // Pipelined like PgBouncer: the SETs go out right before the client's own messages;
            // the server connection swallows their results up to their ReadyForQuery and relays
            // what follows, so a server switch costs no extra round trip.
            long serverId = server.id();
            server.runInternal(sync, ok -> {
                if (!ok) {
                    Log.global().warning("S-0x" + Long.toHexString(serverId)
                            + ": setting client parameters failed: " + sync);
                }
            });
        }
        startRelay();
    }

    private void startRelay() {
        state = State.ACTIVE;
        Frame f;
        while ((f = pending.poll()) != null) {
            forward(f);
        }
        pendingBytes = 0;
        server.flush();
        if (readPaused) {
            readPaused = false;
            channel.config().setAutoRead(true);
        }
    }

    // ---- relay: server -> client (ServerListener) -------------------------------------------

    @Override
    public void onServerFrame(Frame frame) {
        if (stats != null) {
            stats.add(DatabaseStats.SENT, frame.length());
        }
        if (frame.type() == 'S') {
            params.serverReported(frame);
        }
        channel.write(frame.bytes().retain());
        frame.release();
    }

    @Override
    public void onReady(TransactionStatus status, Frame frame) {
        if (route.mode() == PoolMode.STATEMENT && status.inTransaction()) {
            frame.release();
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "transaction blocks not allowed in statement pooling mode"),
                    "transaction blocks not allowed in statement pooling mode");
            return;
        }
        onServerFrame(frame);
        if (pendingSyncs > 0) {
            pendingSyncs--;
        }
        if (pendingSyncs > 0 || unsynced) {
            return;
        }
        long now = System.nanoTime();
        if (stats != null) {
            stats.query((now - queryStartNanos) / 1000);
        }
        cancelTimer();
        if (status == TransactionStatus.IDLE) {
            long xact = now - linkedAtNanos;
            if (stats != null) {
                stats.transaction(xact / 1000);
            }
            ctx.transactionDone(route.poolKey(), xact);
            if (route.mode() != PoolMode.SESSION) {
                channel.flush();
                releaseServer();
                return;
            }
        }
        armIdleTimers();
    }

    @Override
    public void onServerReadComplete() {
        channel.flush();
    }

    @Override
    public void onServerLost(String reason) {
        if (lease != null) {
            lease.discard(reason);
        }
        lease = null;
        server = null;
        fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "server conn crashed?"), "server conn crashed?");
    }

    @Override
    public boolean clientWritable() {
        return channel.isWritable();
    }

    /** Gives the server back: transaction/statement end, or client exit in session mode. */
    private void releaseServer() {
        ServerConnection s = server;
        Lease l = lease;
        server = null;
        lease = null;
        state = State.IDLE;
        s.unlink();
        returnServer(s, l, route.resetAlways() || route.mode() == PoolMode.SESSION);
        if (!pending.isEmpty() && !closing) {
            requestServer();
        } else if (!closing) {
            armIdleTimers();
        }
    }

    /**
     * Returns an unlinked server to the pool: an open transaction is rolled back first, then
     * the reset query runs when asked for; a failure of either closes the server instead.
     */
    private void returnServer(ServerConnection s, Lease l, boolean runResetQuery) {
        String q = route.resetQuery();
        Runnable afterRollback = () -> {
            if (!runResetQuery || q == null || q.isEmpty()) {
                l.release();
                return;
            }
            s.runInternal(q, ok -> {
                if (ok) {
                    l.release();
                } else {
                    l.discard("reset query failed");
                }
            });
        };
        if (s.inTransaction()) {
            s.runInternal("ROLLBACK", ok -> {
                if (ok) {
                    afterRollback.run();
                } else {
                    l.discard("rollback failed");
                }
            });
        } else {
            afterRollback.run();
        }
    }

    // ---- timers -------------------------------------------------------------------------------

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void armQueryTimer() {
        if (route.queryTimeout() > 0 && timer == null) {
            timer = channel.eventLoop().schedule(() -> {
                timer = null;
                if (server != null && pendingSyncs > 0) {
                    fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "query timeout"), "query timeout");
                }
            }, route.queryTimeout(), TimeUnit.NANOSECONDS);
        }
    }

    private void armIdleTimers() {
        cancelTimer();
        if (server != null && server.inTransaction() && route.idleTransactionTimeout() > 0) {
            timer = channel.eventLoop().schedule(() -> {
                timer = null;
                fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "idle transaction timeout"), "idle transaction timeout");
            }, route.idleTransactionTimeout(), TimeUnit.NANOSECONDS);
        } else if (server == null && route != null && route.clientIdleTimeout() > 0) {
            timer = channel.eventLoop().schedule(() -> {
                timer = null;
                fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "client_idle_timeout"), "client_idle_timeout");
            }, route.clientIdleTimeout(), TimeUnit.NANOSECONDS);
        }
    }

    // ---- endings ------------------------------------------------------------------------------

    /** Sends {@code error} to the client, logs {@code reason}, closes. */
    void fail(PgError error, String reason) {
        if (state == State.CLOSED || closing) {
            return;
        }
        closing = true;
        if (channel.isActive()) {
            channel.writeAndFlush(Encoders.error(channel.alloc(), error)).addListener(ChannelFutureListener.CLOSE);
        }
        cleanup(reason, error);
    }

    /** Ends the session from outside (KILL_CLIENT, KILL, shutdown): the client gets {@code error}. */
    public void kill(String reason, PgError error) {
        fail(error, reason);
    }

    private void cleanup(String reason) {
        cleanup(reason, null);
    }

    /** Ends the session; PgBouncer logs "closing because" first, then "pooler error". */
    private void cleanup(String reason, PgError sent) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasLoggedIn = state != State.LOGIN;
        state = State.CLOSED;
        closing = true;
        cancelTimer();
        if (waiting != null) {
            waiting.alive = false;
            waiting = null;
        }
        Frame f;
        while ((f = pending.poll()) != null) {
            f.release();
        }
        if (server != null) {
            ServerConnection s = server;
            if (pendingSyncs == 0 && !unsynced && s.isOpen()) {
                Lease l = lease;
                server = null;
                lease = null;
                s.unlink();
                returnServer(s, l, route.resetAlways() || route.mode() == PoolMode.SESSION);
            } else {
                s.unlink();
                lease.discard("client disconnect while server was not ready");
                server = null;
                lease = null;
            }
        }
        if (login != null) {
            login.dispose();
        }
        ctx.clients().remove(this);
        if ((wasLoggedIn || !user.isEmpty()) && ctx.settings().logDisconnections()) {
            log("closing because: " + reason + " (age=" + ((System.currentTimeMillis() - connectTimeMillis) / 1000) + "s)");
        }
        if (sent != null && ctx.settings().logPoolerErrors()) {
            Log.global().client(io.sluice.log.Level.WARNING, id, database, user, remoteAddress(), remotePort(), "pooler error: " + sent.message());
        }
        if (channel != null && channel.isActive() && !channel.isWritable()) {
            channel.close();
        } else if (channel != null && channel.isActive()) {
            channel.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    void log(String msg) {
        Log.global().client(id, database, user, remoteAddress(), remotePort(), msg);
    }

    void write(ByteBuf buf) {
        channel.write(buf);
    }

    void writeAndFlush(ByteBuf buf) {
        channel.writeAndFlush(buf);
    }
}
