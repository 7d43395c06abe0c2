package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import io.sluice.backend.ServerConnection;
import io.sluice.log.Level;
import io.sluice.log.Log;
import io.sluice.net.Endpoint;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.PoolKey;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.SqlState;
import io.sluice.proto.StartupPacket;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client connection, as the thin Netty handler of the client side: login (delegated to
 * {@link ClientLogin}), then either the admin console ({@link ConsoleSession}) or the relay to a
 * leased server ({@link Relay}). Its {@link State} is a place: {@link #moveTo} is the one
 * transition, and {@link ClientRegistry} keeps the per-pool lists that SHOW POOLS and SHOW
 * CLIENTS read. See package-info for the threading rule.
 */
public final class ClientSession extends ChannelInboundHandlerAdapter {
    private static final AtomicLong IDS = new AtomicLong(1);
    /** The console's pool, as PgBouncer lists it in SHOW POOLS. */
    static final PoolKey CONSOLE_POOL = new PoolKey("pgbouncer", "pgbouncer");

    /**
     * PgBouncer's client places: LOGIN (authenticating), IDLE and ACTIVE (both PgBouncer's
     * cl_active list: without and with a linked server), WAITING (cl_waiting), CLOSED.
     */
    public enum State { LOGIN, IDLE, WAITING, ACTIVE, CLOSED }

    private final long id = IDS.getAndIncrement();
    private final SessionContext ctx;
    private final boolean unixSocket;
    private final long connectTimeMillis = System.currentTimeMillis();
    private Channel channel;
    private State state = State.LOGIN;
    private PoolKey poolKey;
    private ClientLogin login;
    private ConsoleSession console;
    private Relay relay;
    private ReadGate gate;
    private SessionTimers timers;
    private String user = "";
    private String database = "";
    private int cancelPid;
    private int cancelKey;
    private ClientParams params;
    private long requestTimeMillis;
    private boolean closing;

    public ClientSession(SessionContext ctx, boolean unixSocket) {
        this.ctx = ctx;
        this.unixSocket = unixSocket;
    }

    // ---- identity, for SHOW CLIENTS and logs --------------------------------------------------

    public long id() {
        return id;
    }

    public String user() {
        return user;
    }

    /** The client's address; a unix-socket client shows the listen port, as in PgBouncer. */
    public Endpoint remote() {
        return Endpoint.of(channel == null ? null : channel.remoteAddress(), ctx.settings().listenPort());
    }

    public String database() {
        return database;
    }

    public Endpoint local() {
        return Endpoint.of(channel == null ? null : channel.localAddress(), ctx.settings().listenPort());
    }

    public String applicationName() {
        return params == null ? "" : params.applicationName();
    }

    // ---- place and timing ---------------------------------------------------------------------

    public State state() {
        return state;
    }

    public boolean isConsole() {
        return console != null;
    }

    /** The pool whose lists hold this client (the console's for console clients); null at login. */
    public PoolKey poolKey() {
        return poolKey;
    }

    public ServerConnection server() {
        return relay == null ? null : relay.server();
    }

    /** Named protocol-level statements Sluice keeps for this client (transaction/statement pooling). */
    public int preparedStatements() {
        return relay == null ? 0 : relay.preparedStatements();
    }

    /** What pins this client to its server (e.g. "listen=1"), or null when it is not pinned. */
    public String pinReason() {
        return relay == null ? null : relay.pinReason();
    }

    public long connectTimeMillis() {
        return connectTimeMillis;
    }

    /** When this client started waiting for a server (the context clock), or 0. */
    public long waitingSinceNanos() {
        return relay == null ? 0 : relay.waitingSince();
    }

    public long requestTimeMillis() {
        return requestTimeMillis;
    }

    // ---- for the login, the console and the registry -------------------------------------------

    int cancelPid() {
        return cancelPid;
    }

    boolean unixSocket() {
        return unixSocket;
    }

    SessionContext context() {
        return ctx;
    }

    Channel channel() {
        return channel;
    }

    /** The one state transition: moves this client between its pool's lists. */
    void moveTo(State to) {
        State from = state;
        if (from == to) {
            return;
        }
        state = to;
        ctx.clients().moved(this, from, to);
    }

    // ---- channel events ---------------------------------------------------------------------

    @Override
    public void channelActive(ChannelHandlerContext c) {
        channel = c.channel();
        gate = new ReadGate(channel);
        timers = new SessionTimers(ctx.scheduler(), ctx.clock());
        ctx.clients().add(this);
        login = new ClientLogin(this);
        if (ctx.clients().total() > ctx.settings().maxClientConn()) {
            login.refuseWhenStarted(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                    "no more connections allowed (max_client_conn)"));
        }
        timers.arm(ctx.settings().clientLoginTimeout(), () -> {
            if (state == State.LOGIN) {
                fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "client_login_timeout"), "client_login_timeout");
            }
        });
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
        } else if (console != null) {
            console.onFrame(frame);
        } else {
            requestTimeMillis = System.currentTimeMillis();
            if (frame.type() == 'X') {
                frame.release();
                close("client close request");
            } else if (frame.type() == 'Q' && ctx.settings().disablePqexec()) {
                frame.release();
                fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "PQexec disallowed"), "PQexec disallowed");
            } else {
                relay.fromClient(frame);
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
        if (relay != null) {
            relay.clientReadComplete();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext c) {
        if (relay != null) {
            relay.clientWritabilityChanged();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        close("client close request");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        Throwable t = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (t instanceof ProtocolException pe) {
            fail(pe.error(), pe.getMessage());
        } else if (t instanceof java.io.IOException) {
            close("client unexpected eof");
        } else {
            Log.global().error("C-" + Long.toHexString(id) + ": unexpected error: " + t);
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "internal error"), "internal error: " + t);
        }
    }

    // ---- login completion (called by ClientLogin) ----------------------------------------

    void identify(String database, String user) {
        this.database = database;
        this.user = user;
    }

    void countLogin() {
        ctx.clients().loggedIn(this, database, user);
    }

    /** Login finished: greet the client and start serving; {@code r} is null for the console. */
    void loggedIn(Route r, boolean isConsole, boolean admin, ClientParams p, Map<String, String> welcome) {
        timers.cancel();
        this.params = p;
        if (isConsole) {
            console = new ConsoleSession(this, gate, admin);
            poolKey = CONSOLE_POOL;
        } else {
            relay = new Relay(this, r, p, ctx.stats(database), gate, timers);
            poolKey = r.poolKey();
        }
        cancelPid = ctx.clients().allocateCancelPid(this);
        cancelKey = ctx.clients().cancelSecret(cancelPid, this);
        var alloc = channel.alloc();
        channel.write(Encoders.authentication(alloc, 0, new byte[0]));
        p.greeting(welcome).forEach((k, v) -> channel.write(Encoders.parameterStatus(alloc, k, v)));
        channel.write(Encoders.backendKeyData(alloc, cancelPid, cancelKey));
        channel.writeAndFlush(Encoders.readyForQuery(alloc, TransactionStatus.IDLE));
        moveTo(State.IDLE);
        if (ctx.settings().logConnections()) {
            log("login attempt: db=" + database + " user=" + user + " tls=no");
        }
        if (relay != null) {
            relay.armIdleTimers();
        }
    }

    /** A CancelRequest for this session arrived on another connection. */
    void cancelRequested(int key) {
        if (key != cancelKey || relay == null) {
            return;
        }
        if (relay.busy()) {
            ctx.forwardCancel(relay.server());
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

    void consoleDone() {
        if (console != null) {
            console.done();
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
        end(reason, error);
    }

    /** Ends the session from outside (KILL_CLIENT, KILL, shutdown): the client gets {@code error}. */
    public void kill(String reason, PgError error) {
        fail(error, reason);
    }

    /** Ends the session without an error to the client (Terminate, EOF). */
    void close(String reason) {
        end(reason, null);
    }

    /** Ends the session; PgBouncer logs "closing because" first, then "pooler error". */
    private void end(String reason, PgError sent) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasLoggedIn = state != State.LOGIN;
        closing = true;
        timers.cancel();
        if (relay != null) {
            relay.close();
        }
        if (login != null) {
            login.dispose();
        }
        moveTo(State.CLOSED);
        ctx.clients().remove(this);
        if ((wasLoggedIn || !user.isEmpty()) && ctx.settings().logDisconnections()) {
            log("closing because: " + reason + " (age=" + ((System.currentTimeMillis() - connectTimeMillis) / 1000) + "s)");
        }
        if (sent != null && ctx.settings().logPoolerErrors()) {
            Log.global().client(Level.WARNING, id, database, user, remote().address(), remote().port(),
                    "pooler error: " + sent.message());
        }
        if (channel.isActive() && !channel.isWritable()) {
            channel.close();
        } else if (channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    void log(String msg) {
        Log.global().client(id, database, user, remote().address(), remote().port(), msg);
    }

    void write(ByteBuf buf) {
        channel.write(buf);
    }
}
