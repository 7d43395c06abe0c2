package io.sluice.backend;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.log.Level;
import io.sluice.log.Log;
import io.sluice.net.Endpoint;
import io.sluice.pool.ServerHandle;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrameReader;
import io.sluice.proto.codec.FrameSink;
import io.sluice.proto.codec.RunJoiner;
import io.sluice.util.Clock;
import io.sluice.util.SharedStrings;
import io.sluice.util.SocketIds;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One connection to PostgreSQL. Owns its channel's inbound handling: login (through
 * {@link ServerLogin}), relaying to a linked client ({@link ServerListener}), and internal
 * queries the pooler runs itself ({@link InternalQueries}: reset, check, rollback, SET of client
 * parameters). Confined to its channel's event loop, which is also the engine thread.
 */
public final class ServerConnection extends ChannelInboundHandlerAdapter implements ServerHandle, FrameReader {
    public enum State { LOGIN, IDLE, ACTIVE, INTERNAL, CLOSED }
    private final long id = SocketIds.next();
    private final Channel channel;
    /** This handler's context: flushes and the pooler's own writes start here instead of at the pipeline's tail. */
    private ChannelHandlerContext writer;
    /** Where relayed frames go: the joiner before this handler, called directly. */
    private FrameSink relayOut;
    private final BackendTarget target;
    private final String database;
    /** The loop's clock: request_time is stamped at each packet read, as PgBouncer stamps it. */
    private final Clock clock;
    private final long connectTimeMillis;
    private final ServerParams params = new ServerParams();
    private final InternalQueries internal = new InternalQueries(this);
    private State state = State.LOGIN;
    private TransactionStatus status = TransactionStatus.IDLE;
    /** The server's BackendKeyData (cancel requests, SHOW SERVERS remote_pid); null until login delivers it. */
    private BackendMessage.BackendKeyData cancelKey;
    private ServerListener listener;
    private ServerLogin login;
    /** request_time in SHOW SERVERS: when the last packet came from the server, the connect time before it. */
    private long requestTimeMillis;
    /** A client has been linked at least once. */
    private boolean servedClient;
    private boolean retired;
    private String clientApplicationName = "";
    private final BooleanSupplier logDisconnections;
    private Object sessionState; // the session layer's, opaque here: statements it prepared, settings

    public ServerConnection(Channel channel, BackendTarget target, String database, ServerLogin login,
                            BooleanSupplier logDisconnections, Clock clock) {
        this.channel = channel;
        this.clock = clock;
        this.connectTimeMillis = clock.currentTimeMillis();
        this.requestTimeMillis = connectTimeMillis;
        this.logDisconnections = logDisconnections;
        this.target = target;
        this.database = database;
        this.login = login;
    }

    /** The connection behind a pool handle (the pool's connector is ours, so every handle is one). */
    public static ServerConnection of(ServerHandle handle) {
        if (handle instanceof ServerConnection c) {
            return c;
        }
        throw new IllegalStateException("not a server connection: " + handle);
    }

    @Override
    public long id() {
        return id;
    }

    public String user() {
        return target.credentials().user();
    }

    /** The queries the pooler runs on this server itself (reset, check, SET...). */
    public InternalQueries internal() {
        return internal;
    }

    public String database() {
        return database;
    }

    public BackendTarget target() {
        return target;
    }

    public Endpoint local() {
        return Endpoint.of(channel.localAddress(), 0);
    }

    /**
     * PostgreSQL's address (over a unix socket, with the port its socket file is named after);
     * before the socket connected (a failed connect), the target's.
     */
    public Endpoint remote() {
        java.net.SocketAddress a = channel.remoteAddress();
        if (a == null && !target.unixSocket()) {
            return new Endpoint(target.host(), target.port());
        }
        return Endpoint.of(a, target.port());
    }

    public Channel channel() {
        return channel;
    }

    /** Sends the startup packet of this connection's target (after the SSLRequest exchange, if any). */
    void sendStartup() {
        channel.writeAndFlush(Encoders.startup(channel.alloc(), target.startupParams()));
    }

    /** What a CancelRequest for this server's query must carry; null before login got it. */
    public BackendMessage.BackendKeyData cancelKey() {
        return cancelKey;
    }

    /** The backend's process id (SHOW SERVERS remote_pid), 0 before login. */
    public int backendPid() {
        return cancelKey == null ? 0 : cancelKey.processId();
    }

    public State state() {
        return state;
    }

    /** The client application linked now, for SHOW SERVERS; empty when idle. */
    public String applicationName() {
        return clientApplicationName;
    }

    public ServerParams params() {
        return params;
    }

    /** The session layer's record of this server's session state (lives and dies with it); null until set. */
    public Object sessionState() {
        return sessionState;
    }

    public void sessionState(Object state) {
        this.sessionState = state;
    }

    public long connectTimeMillis() {
        return connectTimeMillis;
    }

    public long requestTimeMillis() {
        return requestTimeMillis;
    }

    @Override
    public boolean servedClient() {
        return servedClient;
    }

    public void retire() { // its host drains: see ServerHandle#retired()
        retired = true;
    }

    @Override
    public boolean retired() {
        return retired;
    }

    @Override
    public boolean isOpen() {
        return state != State.CLOSED && channel.isActive();
    }

    @Override
    public boolean inTransaction() {
        return status.inTransaction();
    }

    public TransactionStatus status() {
        return status;
    }

    /** Ties this server to a client; frames flow to it until {@link #unlink()}. */
    public void link(ServerListener l, String applicationName) {
        if (state != State.IDLE) {
            throw new IllegalStateException("link in state " + state);
        }
        this.listener = l;
        servedClient = true;
        this.clientApplicationName = applicationName == null ? "" : applicationName;
        state = State.ACTIVE;
        channel.config().setAutoRead(l.clientWritable());
    }

    public void unlink() {
        if (state == State.ACTIVE) {
            state = State.IDLE;
        }
        listener = null;
        clientApplicationName = "";
        if (channel.isActive()) {
            channel.config().setAutoRead(true);
        }
    }

    public boolean linked() {
        return listener != null;
    }

    /** Client writability changed: follow it so a slow client slows the server, not our heap. */
    public void clientWritabilityChanged(boolean writable) {
        if (state == State.ACTIVE) {
            channel.config().setAutoRead(writable);
        }
    }

    /** Writes a client frame to the server (takes ownership), without flushing. */
    public void write(Frame frame) {
        relayOut.relay(frame);
    }

    public void flush() {
        writer.flush();
    }

    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void probe(Probe kind, Consumer<Boolean> done) {
        internal.probe(kind, done);
    }

    /** {@link InternalQueries} move the connection into INTERNAL and back, where a linked client paces reading. */
    void moveTo(State to) {
        state = to;
        if (state == State.ACTIVE && listener != null) {
            channel.config().setAutoRead(listener.clientWritable());
        }
    }

    /** A log line with this server's {@code S-} prefix. */
    public void log(Level level, String message) {
        Log.global().server(level, id, database, user(), remote().address(), remote().port(), message);
    }

    /** PgBouncer's "closing because" line, written only while log_disconnections is on. */
    private void logClosing(String reason) {
        if (logDisconnections.getAsBoolean()) {
            log(Level.LOG, Log.closingBecause(reason, connectTimeMillis, clock.currentTimeMillis()));
        }
    }

    @Override
    public void close(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        boolean wasLogin = state == State.LOGIN;
        state = State.CLOSED;
        logClosing(reason);
        if (channel.isActive()) {
            if (!wasLogin) {
                channel.writeAndFlush(Encoders.terminate(channel.alloc()));
            }
            channel.close();
        }
        failPending(reason);
    }

    private void failPending(String reason) {
        internal.abandon();
        ServerListener l = listener;
        listener = null;
        if (l != null) {
            l.onServerLost(reason);
        }
        ServerLogin lg = login;
        login = null;
        if (lg != null) {
            lg.failed("08006", "server closed the connection unexpectedly");
        }
    }

    // ---- inbound ----------------------------------------------------------------------

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        writer = ctx;
        relayOut = RunJoiner.sinkFor(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        frameRead((Frame) msg);
    }

    /** A message from the server, straight from its frame decoder (in tests, down the pipeline). */
    @Override
    public void frameRead(Frame frame) {
        requestTimeMillis = clock.currentTimeMillis();
        try {
            if (state == State.ACTIVE) {
                relay(frame); // the linked client takes the frame over
                return;
            }
            try {
                switch (state) {
                    case LOGIN -> loginFrame(frame);
                    case INTERNAL -> internal.read(frame);
                    case IDLE -> idleFrame(frame);
                    default -> { }
                }
            } finally {
                frame.release();
            }
        } catch (ProtocolException e) {
            close("server protocol error: " + e.getMessage());
        }
    }

    private void relay(Frame frame) {
        byte t = frame.type();
        if (t == 'Z') {
            listener.onReady(ready(frame), frame);
            return;
        }
        if (t == 'S') {
            rememberParam(frame);
        }
        listener.onServerFrame(frame);
    }

    /** A ReadyForQuery: the server's transaction status from now on. */
    TransactionStatus ready(Frame frame) {
        status = BackendDecoding.readyStatus(frame);
        return status;
    }

    void rememberParam(Frame frame) {
        if (BackendDecoding.decode(frame) instanceof BackendMessage.ParameterStatus p) {
            remember(p);
        }
    }

    /** Shared strings: each server switch compares a client's values with these (by reference first). */
    private void remember(BackendMessage.ParameterStatus p) {
        params.reported(SharedStrings.of(p.name()), SharedStrings.of(p.value()));
    }

    private void loginFrame(Frame frame) {
        BackendMessage m = BackendDecoding.decode(frame);
        if (m instanceof BackendMessage.BackendKeyData k) {
            cancelKey = k;
        } else if (m instanceof BackendMessage.ParameterStatus p) {
            ServerDebug.line(this, () -> "S: param: " + p.name() + " = " + p.value());
            remember(p);
        } else if (m instanceof BackendMessage.ReadyForQuery r) {
            ServerDebug.line(this, () -> "server login ok, start accepting queries");
            status = r.status();
            state = State.IDLE;
            ServerLogin lg = login;
            login = null;
            lg.succeeded(this);
        } else if (m != null && login != null) {
            login.onMessage(this, m);
        }
    }

    private void idleFrame(Frame frame) {
        byte t = frame.type();
        if (t == 'S') {
            rememberParam(frame);
            return;
        }
        // PgBouncer's words (handle_server_work) for anything else an idle server sends: a notice
        // or notification has nobody to go to; an error (pg_terminate_backend) ends the server
        log(Level.WARNING, "got packet '" + (char) t + "' from server when not linked");
        if (t == 'E') {
            close("server conn crashed?");
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ServerListener l = listener;
        if (l != null && state == State.ACTIVE) {
            l.onServerReadComplete();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ServerListener l = listener;
        if (l != null) {
            l.onServerWritable(channel.isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (state != State.CLOSED) {
            State was = state;
            state = State.CLOSED;
            logClosing(was == State.LOGIN ? "connect failed" : "server conn crashed?");
            failPending("server conn crashed?");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof ProtocolException || cause.getCause() instanceof ProtocolException) {
            close("server protocol error: " + cause.getMessage());
        } else {
            close("server conn crashed? (" + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")");
        }
    }
}
