package io.sluice.backend;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.log.Level;
import io.sluice.log.Log;
import io.sluice.net.FairReads;
import io.sluice.proto.codec.RunJoiner;
import io.sluice.net.TcpTuning;
import io.sluice.net.Transport;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerConnector;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrameDecoder;
import io.sluice.tls.ServerTls;
import io.sluice.util.Clock;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Opens server connections on the engine's event loop: TCP or unix socket, SSLRequest and
 * TLS per {@code server_tls_sslmode} (TCP only, as PgBouncer), startup packet, login, connect
 * timeout ({@code server_connect_timeout}, which bounds the TLS handshake too).
 */
public final class NettyServerConnector implements ServerConnector {
    private final EventLoop loop;
    private final FairReads fairReads;
    private final Transport transport;
    private final Function<PoolKey, BackendTarget> targets;
    private final String defaultSocketDir;
    private final Consumer<ServerConnection> onCreated;
    private final Supplier<ServerTls> tls;
    private final ConnectionLogging logging;
    private final Supplier<TcpTuning> tcpTuning;
    private final Clock clock;

    /**
     * @param tls            the server_tls_* setup new connections use (RELOAD swaps it)
     * @param logging        log_connections ("SSL established" is a LOG line then, else NOISE) and log_disconnections
     * @param tcpTuning      tcp_keepalive, tcp_keep*, tcp_user_timeout, tcp_socket_buffer for new TCP connections
     * @param clock          the loop's clock: connect_time and request_time of the connections in SHOW SERVERS
     */
    public NettyServerConnector(EventLoop loop, Transport transport, Function<PoolKey, BackendTarget> targets,
                                String defaultSocketDir, Consumer<ServerConnection> onCreated,
                                Supplier<ServerTls> tls, ConnectionLogging logging,
                                Supplier<TcpTuning> tcpTuning, FairReads fairReads, Clock clock) {
        this.loop = loop;
        this.clock = clock;
        this.fairReads = fairReads;
        this.transport = transport;
        this.targets = targets;
        this.defaultSocketDir = defaultSocketDir;
        this.onCreated = onCreated;
        this.tls = tls;
        this.logging = logging;
        this.tcpTuning = tcpTuning;
    }

    @Override
    public void connect(PoolKey key, Callback callback) {
        connect(key, UnaryOperator.identity(), callback);
    }

    /**
     * A connection outside the pool (a replication client's own): the pool's target with
     * {@code extraStartup} added to its startup packet, and no connect_query.
     */
    public void connectDedicated(PoolKey key, Map<String, String> extraStartup, Callback callback) {
        connect(key, base -> {
            Map<String, String> startup = new LinkedHashMap<>(base.startupParams());
            startup.putAll(extraStartup);
            return new BackendTarget(base.host(), base.port(), startup, base.credentials(), null,
                    base.connectTimeoutNanos());
        }, callback);
    }

    /**
     * A connection outside the pool to a given target (a lag check): no connect_query, and the
     * pool's host choice is not consulted.
     */
    public void connectTo(PoolKey key, BackendTarget target, Callback callback) {
        connect(key, base -> new BackendTarget(target.host(), target.port(), target.startupParams(),
                target.credentials(), null, target.connectTimeoutNanos()), callback, false);
    }

    private void connect(PoolKey key, UnaryOperator<BackendTarget> adjust, Callback callback) {
        connect(key, adjust, callback, true);
    }

    /** Connects to {@code key}'s target as {@code adjust} changes it; a target that cannot be had fails the connect. */
    private void connect(PoolKey key, UnaryOperator<BackendTarget> adjust, Callback callback, boolean pick) {
        BackendTarget target;
        try {
            target = adjust.apply(pick ? targets.apply(key) : null);
        } catch (BackendTarget.Unavailable e) {
            callback.rejected(SqlState.CONNECTION_FAILURE, e.getMessage());
            return;
        } catch (RuntimeException e) {
            callback.failed(SqlState.CONNECTION_FAILURE, e.getMessage());
            return;
        }
        SocketAddress address = target.unixSocket()
                ? new DomainSocketAddress(target.socketPath(defaultSocketDir))
                : new InetSocketAddress(target.host(), target.port());
        Class<? extends Channel> type = target.unixSocket() ? transport.domainSocketChannel() : transport.socketChannel();
        ServerLogin login = new ServerLogin(target.credentials(), callback::connected, callback::failed,
                callback::rejected);
        ServerTls serverTls = tls.get();
        boolean negotiateTls = serverTls.appliesTo(target.unixSocket());
        TcpTuning tuning = tcpTuning.get();
        Bootstrap b = new Bootstrap().group(loop).channel(type)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        (int) Math.max(1, Math.min(Integer.MAX_VALUE, target.connectTimeoutNanos() / 1_000_000)))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        tuning.apply(ch); // a unix socket is left alone
                        fairReads.apply(ch);
                        ServerConnection conn = new ServerConnection(ch, target, key.database(), login,
                                logging.disconnections(), clock);
                        ServerDebug.launching(conn, target);
                        if (negotiateTls) {
                            ch.pipeline().addLast(ServerTlsNegotiation.NAME, new ServerTlsNegotiation(serverTls, conn,
                                    login, logging.connections().getAsBoolean()));
                        }
                        ch.pipeline().addLast("frames", new FrameDecoder(Integer.MAX_VALUE, 0, "Dd", conn));
                        ch.pipeline().addLast(RunJoiner.NAME, new RunJoiner());
                        ch.pipeline().addLast("server", conn);
                        onCreated.accept(conn);
                    }
                });
        ChannelFuture f = b.connect(address);
        ScheduledFuture<?> timeout = loop.schedule(() -> {
            ServerConnection conn = f.channel().pipeline().get(ServerConnection.class);
            login.failed(SqlState.CONNECTION_FAILURE, "connect timeout");
            if (conn != null) {
                conn.close("connect timeout");
            } else {
                f.channel().close();
            }
        }, target.connectTimeoutNanos(), TimeUnit.NANOSECONDS);
        f.addListener(done -> {
            if (!done.isSuccess()) {
                timeout.cancel(false);
                // clients see PgBouncer's words (server_login_retry's cached error: "connect
                // failed"), the log PgBouncer's one line "closing because: connect failed"; the
                // socket's own error is for verbose output only
                login.failed(SqlState.CONNECTION_FAILURE, "connect failed");
                ServerConnection conn = f.channel().pipeline().get(ServerConnection.class);
                if (conn != null) {
                    Throwable cause = done.cause();
                    ServerDebug.line(conn, () -> "connect failed: " + cause.getMessage());
                    conn.close("connect failed");
                }
                return;
            }
            Channel ch = f.channel();
            ServerConnection conn = ch.pipeline().get(ServerConnection.class);
            if (conn != null) {
                ServerDebug.line(conn, () -> "S: connect ok");
                // at connect, as PgBouncer: a login that then fails still shows which socket tried
                if (logging.connections().getAsBoolean()) {
                    conn.log(Level.LOG, Log.newServerConnection(target.unixSocket(), conn.local().address(),
                            conn.local().port()));
                }
            }
            ch.closeFuture().addListener(c -> timeout.cancel(false));
            ch.writeAndFlush(negotiateTls ? Encoders.sslRequest(ch.alloc())
                    : Encoders.startup(ch.alloc(), target.startupParams()));
        });
        // login success also ends the timeout
        login.onDone(() -> timeout.cancel(false));
    }
}
