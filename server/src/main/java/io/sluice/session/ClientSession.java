package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.sluice.backend.ServerConnection;
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
import io.sluice.proto.codec.FrameReader;
import io.sluice.proto.codec.ParameterStatuses;
import io.sluice.util.SocketIds;
import io.sluice.tls.TlsInfo;

import java.util.Optional;

/**
 * One client connection, as the thin Netty handler of the client side: login (delegated to
 * {@link ClientLogin}), then either the admin console ({@link ConsoleSession}) or the relay to a
 * leased server ({@link Relay}), until {@link ClientEnding} ends it. Its {@link State} is a
 * place: {@link #moveTo} is the one transition, and {@link ClientRegistry} keeps the per-pool
 * lists that SHOW POOLS and SHOW CLIENTS read. See package-info for the threading rule.
 */
public final class ClientSession extends ChannelInboundHandlerAdapter implements FrameReader {
    /** The console's pool, as PgBouncer lists it in SHOW POOLS. */
    static final PoolKey CONSOLE_POOL = new PoolKey("pgbouncer", "pgbouncer");

    /**
     * PgBouncer's client places: LOGIN (authenticating), IDLE and ACTIVE (both PgBouncer's
     * cl_active list: without and with a linked server), WAITING (cl_waiting), CLOSED.
     */
    public enum State { LOGIN, IDLE, WAITING, ACTIVE, CLOSED }

    private final long id = SocketIds.next();
    /** Its link in the {@link ClientRegistry} place it is in. */
    private final ClientList.Node place = new ClientList.Node(this);
    private final SessionContext ctx;
    private final boolean unixSocket;
    private int remotePid;
    private long connectTimeMillis;
    /**
     * request_time in SHOW CLIENTS: when the client's last message came (the loop turn's time), its
     * connect time before the first, as PgBouncer stamps every packet it reads, login ones too.
     */
    private long requestTimeMillis;
    /** This handler's context, from channelActive on: the channel, and where flushes and Sluice's own writes start. */
    private ChannelHandlerContext writer;
    private State state = State.LOGIN;
    private PoolKey poolKey;
    private ClientLogin login;
    private ConsoleSession console;
    private Relay relay;
    private ReplicationRelay replicationRelay;
    private Replication replication = Replication.NONE;
    private SessionTimers timers;
    private String user = "";
    private String database = "";
    /** Logged in without a pool (unknown database or user): log lines say "(nodb)", as PgBouncer's. */
    private boolean poolless;
    private CancelKeys.Key cancelKey;
    private ClientParams params;
    private final ClientTlsState tlsState = new ClientTlsState(this);
    private final ClientEnding ending = new ClientEnding(this);

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

    /** The client's process over a unix socket (SO_PEERCRED), else 0. */
    public int remotePid() {
        return remotePid;
    }

    /** The client's address; a unix-socket client shows the listen port, as in PgBouncer. */
    public Endpoint remote() {
        return Endpoint.of(writer == null ? null : channel().remoteAddress(), ctx.settings().listenPort());
    }

    public String database() {
        return database;
    }

    public Endpoint local() {
        return Endpoint.of(writer == null ? null : channel().localAddress(), ctx.settings().listenPort());
    }

    public String applicationName() {
        return params == null ? "" : params.applicationName();
    }

    /** The client's TLS session once its handshake is done; null for a plain connection. */
    public TlsInfo tls() {
        return tlsState.info();
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
        ClientSide side = linked();
        return side == null ? null : side.server();
    }

    /** none, physical or logical (SHOW CLIENTS replication). */
    public Replication replication() {
        return replication;
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

    /**
     * When the query in progress began, waiting for a server or running (the context clock), or
     * 0: PgBouncer's query_start, which its SHOW CLIENTS wait columns count from.
     */
    public long queryStartedNanos() {
        return relay == null ? 0 : relay.queryStartedAt();
    }

    public long requestTimeMillis() {
        return requestTimeMillis;
    }

    // ---- for the login, the console and the registry -------------------------------------------

    CancelKeys.Key cancelKey() {
        return cancelKey;
    }

    boolean unixSocket() {
        return unixSocket;
    }

    /** Logged in without a pool: log lines name the database "(nodb)". */
    boolean poolless() {
        return poolless;
    }

    SessionContext context() {
        return ctx;
    }

    /** Null before channelActive. */
    Channel channel() {
        return writer == null ? null : writer.channel();
    }

    /** Relayed writes start here, at this handler, instead of at the pipeline's tail. */
    ChannelHandlerContext writer() {
        return writer;
    }

    ClientList.Node place() {
        return place;
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

    ClientTlsState tlsState() {
        return tlsState;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext c, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent e) {
            tlsState.handshakeDone(e);
            return;
        }
        c.fireUserEventTriggered(evt);
    }

    // ---- channel events ---------------------------------------------------------------------

    @Override
    public void channelActive(ChannelHandlerContext c) {
        writer = c;
        connectTimeMillis = ctx.clock().currentTimeMillis();
        requestTimeMillis = connectTimeMillis;
        remotePid = unixSocket ? PeerCredentials.pidOf(c.channel()) : 0;
        timers = new SessionTimers(ctx.scheduler(), ctx.clock());
        ctx.clients().add(this);
        login = new ClientLogin(this, timers);
        if (ctx.clients().total() > ctx.settings().maxClientConn()) {
            login.refuseWhenStarted(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                    "no more connections allowed (max_client_conn)"));
        }
        ClientLog.connected(this);
        timers.arm(SessionTimers.Slot.IDLE, ctx.settings().clientLoginTimeout(), () -> {
            if (state == State.LOGIN) {
                // PgBouncer's janitor words a login that waits for a pool no server could join
                String why = login.awaitingWelcome() ? "client_login_timeout (server down)" : "client_login_timeout";
                fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, why), why);
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext c, Object msg) {
        if (msg instanceof StartupPacket p) {
            if (!ending.closing()) {
                requestTimeMillis = ctx.clock().currentTimeMillis();
                login.onStartupPacket(p);
            }
            return;
        }
        frameRead((Frame) msg);
    }

    /** A message from the client, straight from its frame decoder (in tests, down the pipeline). */
    @Override
    public void frameRead(Frame frame) {
        if (ending.closing()) {
            frame.release();
            return;
        }
        requestTimeMillis = ctx.clock().currentTimeMillis();
        if (state == State.LOGIN) {
            login.onFrame(frame);
            return;
        }
        // PgBouncer's handle_client_work judges the type first, the console's clients' too
        byte type = frame.type();
        String refused = FrontendFilter.refusal(type, replicationRelay != null,
                type == 'Q' && ctx.settings().disablePqexec());
        if (refused != null) {
            frame.release();
            FrontendFilter.logRefusal(this, refused, type & 0xff);
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, refused), refused);
        } else if (console != null) {
            console.onFrame(frame);
        } else if (type == 'X') {
            frame.release();
            close("client close request");
        } else if (replicationRelay != null) {
            replicationRelay.fromClient(frame);
        } else {
            relay.fromClient(frame);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext c) {
        ClientSide side = linked(); // once per read batch: no Optional
        if (side != null) {
            side.clientReadComplete();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext c) {
        ClientSide side = linked();
        if (side != null) {
            side.clientWritabilityChanged();
        }
    }

    /** The pooled relay or the replication relay, whichever this client has; null otherwise. */
    private ClientSide linked() {
        return relay != null ? relay : replicationRelay;
    }

    @Override
    public void channelInactive(ChannelHandlerContext c) {
        ending.socketEnded(state == State.LOGIN && login != null && login.awaitingClient());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext c, Throwable cause) {
        ending.exceptionCaught(cause);
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
    void loggedIn(Route r, boolean isConsole, boolean admin, ClientParams p, ParameterStatuses welcome) {
        p.fillUnset(welcome);
        if (isConsole) {
            console = new ConsoleSession(this, admin);
            poolKey = CONSOLE_POOL;
        } else {
            relay = new Relay(this, r, p, ctx.stats(database), timers);
            poolKey = r.poolKey();
        }
        greet(p, welcome, State.IDLE);
        if (relay != null) {
            relay.armIdleTimers();
        }
    }

    /** A replication client is in: linked to its dedicated server for good, greeted with that server's parameters. */
    void loggedInReplication(Route r, Replication mode, ClientParams p, ServerConnection server) {
        replication = mode;
        poolKey = r.poolKey();
        replicationRelay = new ReplicationRelay(this, server, p.applicationName());
        ParameterStatuses greeting = ParameterStatuses.of(server.params().values());
        p.fillUnset(greeting);
        greet(p, greeting, State.ACTIVE);
    }

    private void greet(ClientParams p, ParameterStatuses welcome, State to) {
        timers.cancelAll();
        this.params = p;
        cancelKey = ctx.clients().issueCancelKey(this, ctx.peerCancels().peerId());
        Encoders.greet(channel(), login.takeSaslFinal(), welcome, p.own(), cancelKey.pid(), cancelKey.secret());
        ClientLog.debug(this, () -> "logged in");
        moveTo(to);
    }

    /**
     * PgBouncer's "login attempt" line, logged where it logs it: once the database and user are
     * looked up, before the password exchange and the wait for a server. {@code poolless}: the
     * database or the user is unknown, so PgBouncer has no pool for the client and its log
     * lines name the database "(nodb)" from here on.
     */
    void loginAttempt(boolean poolless) {
        this.poolless = poolless;
        if (ctx.settings().logConnections()) {
            ClientLog.line(this, "login attempt: db=" + database + " user=" + user
                    + " tls=" + (tls() == null ? "no" : tls().describe()) + " replication=" + replication.word());
        }
    }

    /**
     * A CancelRequest for this session arrived on another connection. Returns true when it was
     * forwarded to this client's busy server; {@code done} then runs once it is complete.
     */
    boolean cancelRequested(int key, Runnable done) {
        if (cancelKey == null || key != cancelKey.secret() || relay == null || !relay.busy()) {
            return false;
        }
        ctx.cancels().cancel(relay.server(), done);
        return true;
    }

    /**
     * server_fast_close: when this client's session server was marked close_needed and is idle,
     * closes it and disconnects the client ("database configuration changed"). True if it did.
     */
    public boolean closeIfServerClosing() {
        return relay != null && state != State.CLOSED && relay.closeIfServerClosing();
    }

    // ---- endings (decided and told by ClientEnding) -------------------------------------------

    /** Logs {@code reason}, sends {@code error} to the client, closes. */
    void fail(PgError error, String reason) {
        ending.fail(error, reason);
    }

    /** Input that breaks the protocol: logged and answered as at the client's own read. */
    void refuse(ProtocolException e) {
        ending.refuse(e);
    }

    /** Ends the session from outside (KILL_CLIENT, KILL, shutdown): the client gets {@code error}. */
    public void kill(String reason, PgError error) {
        ending.fail(error, reason);
    }

    /** Ends the session without an error to the client (Terminate, EOF). */
    void close(String reason) {
        ending.close(reason);
    }

    /** The pool could not give a server: the client gets the engine's text (PgBouncer's words). */
    void failCheckout(CheckoutFailure f) {
        ending.failCheckout(f);
    }

    SessionTimers timers() {
        return timers;
    }

    /** The session is ending (called by {@link ClientEnding}): its server is settled, its login stopped. */
    void settle() {
        if (relay != null) {
            relay.close();
        }
        if (replicationRelay != null) {
            replicationRelay.close();
        }
        if (login != null) {
            login.dispose();
        }
    }

    void write(ByteBuf buf) {
        channel().write(buf);
    }
}
