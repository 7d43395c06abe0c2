package io.sluice.runtime;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.sluice.auth.UserLookup;
import io.sluice.backend.CancelForwarder;
import io.sluice.backend.ConnectionLogging;
import io.sluice.backend.PeerForwarder;
import io.sluice.backend.NettyServerConnector;
import io.sluice.backend.ScramKeyCache;
import io.sluice.backend.WelcomeCache;
import io.sluice.backend.ServerConnection;
import io.sluice.config.ConfigSnapshot;
import io.sluice.log.Log;
import io.sluice.metrics.PrometheusEndpoint;
import io.sluice.net.AfterInactive;
import io.sluice.net.EventLoopScheduler;
import io.sluice.net.Listeners;
import io.sluice.proto.codec.RunJoiner;
import io.sluice.net.TcpTuning;
import io.sluice.net.Transport;
import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.Waiter;
import io.sluice.pool.evict.PoolRegistry;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.StartupDecoder;
import io.sluice.session.ClientRegistry;
import io.sluice.session.ClientSession;
import io.sluice.session.Console;
import io.sluice.session.RouteLookup;
import io.sluice.session.SessionContext;
import io.sluice.session.SessionSettings;
import io.sluice.stats.DatabaseStats;
import io.sluice.stats.StatsRegistry;
import io.sluice.tls.ClientTls;
import io.sluice.tls.Tls;
import io.sluice.tls.TlsSetupException;
import io.sluice.util.Clock;
import io.sluice.util.Randomness;
import io.sluice.util.Scheduler;
import io.sluice.util.TurnClock;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A running Sluice: listeners, the event loop that carries every channel and the pool engine,
 * and the current config snapshot. Implements the {@link SessionContext} the sessions use.
 * Everything mutable is touched on {@link #loop()} only.
 */
public final class SluiceServer implements SessionContext {
    private final Transport transport = new Transport();
    /** The loop's time, read once per batch of I/O completions (PgBouncer's cached loop time). */
    private final TurnClock clock = new TurnClock();
    private final EventLoopGroup group;
    private final EventLoop loop;
    /** Every client and server connection still open, so that stopNow can wait for their closes. */
    private final ChannelGroup open;
    private final PoolRegistry pools;
    private final EventLoopScheduler scheduler;
    private final ClientRegistry clients = new ClientRegistry();
    private final StatsRegistry stats = new StatsRegistry(Clock.SYSTEM);
    private final WelcomeCache welcome = new WelcomeCache(this::checkout);
    private final ScramKeyCache scramKeys = new ScramKeyCache();
    private final AuthLookups authLookups = new AuthLookups(() -> this.routing, this::checkout);
    private final Map<Long, ServerConnection> servers = new LinkedHashMap<>();
    private final Listeners listeners;
    private final CancelForwarder cancels;
    private final PeerForwarder peers;
    private final NettyServerConnector connector;
    private final HostRouting hosts;
    private final ReplicaChecking replicas;
    /** Replication clients' own server connections, outside every pool: id to replication mode. */
    private final DedicatedServers dedicated;
    private final LoggingPoolEvents poolEvents = new LoggingPoolEvents();
    private final CompletableFuture<Integer> terminated = new CompletableFuture<>();
    /** Set by the first {@link #stopNow}. */
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final int ownUid = UnixUser.uid();
    /** pkt_buf: what an unauthenticated client may send in one packet; fixed until restart, as in PgBouncer. */
    private final int loginPacketLimit;
    private final Tls tls;
    private volatile Routing routing;
    private volatile SessionSettings sessionSettings;
    private Console console;
    private final PauseControl pause = new PauseControl(this);
    private final ConfigReload reload = new ConfigReload(this);
    private final Janitor janitor = new Janitor(this);
    private volatile boolean shuttingDown;
    private final ClientDrain drain = new ClientDrain(clients::total);
    private final AfterInactive departures = new AfterInactive(drain::check);
    private final Set<String> autoDatabases = new LinkedHashSet<>();
    private PrometheusEndpoint metrics;
    private Channel health;

    public SluiceServer(ConfigSnapshot config) {
        this.routing = new Routing(config);
        this.sessionSettings = routing.sessionSettings();
        this.loginPacketLimit = config.settings().intValue("pkt_buf");
        try {
            this.tls = Tls.load(config.settings(), config.authType());
        } catch (TlsSetupException e) {
            // PgBouncer: the reason as an ERROR line, then die("TLS setup failed")
            throw new FatalError("TLS setup failed", java.util.List.of(e.getMessage()), e);
        }
        this.group = transport.newLoop(clock);
        this.loop = group.next();
        this.open = new DefaultChannelGroup("connections", loop);
        String socketDir = config.unixSocketDir();
        var logging = new ConnectionLogging(() -> sessionSettings.logConnections(),
                () -> sessionSettings.logDisconnections());
        this.hosts = new HostRouting(() -> routing, scramKeys, authLookups::queriedSecret);
        this.listeners = new Listeners(group, transport, Log.global()::error, Log.global()::warning, Log.global()::info);
        this.connector = new NettyServerConnector(loop, transport, hosts::next, socketDir, this::serverCreated,
                tls::server, logging, this::tcpTuning, listeners.fairReads(), clock);
        this.dedicated = new DedicatedServers(connector, poolEvents);
        this.replicas = new ReplicaChecking(this, connector, hosts);
        hosts.serviceCheck(replicas::inService);
        this.scheduler = new EventLoopScheduler(loop);
        this.pools = new PoolRegistry(key -> routing.poolSettings(key), hosts.tracking(connector), poolEvents,
                clock, scheduler, Randomness.threadLocal());
        this.cancels = new CancelForwarder(loop, transport, socketDir, logging);
        this.peers = new PeerForwarder(loop, transport, () -> routing.config());
    }

    /** Binds the listeners and starts the periodic tasks. */
    public SluiceServer start() throws IOException {
        ConfigSnapshot c = routing.config();
        var s = c.settings();
        listeners.deferAccept(s.flag("tcp_defer_accept"));
        listeners.bind(c.listenAddrs(), c.listenPort(), s.intValue("listen_backlog"), s.flag("so_reuseport"),
                this::tcpTuning, c.unixSocketDir(), c.unixSocketMode(), s.string("unix_socket_group"),
                Handover.from(System.getenv()).isPresent(), this::accepted);
        janitor.start();
        replicas.start();
        try {
            metrics = MetricsSource.startIfConfigured(this, group, transport);
            health = HealthEndpoint.startIfConfigured(this, group, transport);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted binding the metrics or health endpoint", e);
        }
        return this;
    }

    /** Keepalive and buffer settings as the current config has them (RELOAD applies to new sockets). */
    private TcpTuning tcpTuning() {
        return routing.tcpTuning();
    }

    private void accepted(Channel ch, boolean unix) {
        open.add(ch);
        ch.pipeline().addLast("departure", departures);
        // with client TLS off the detector would only step aside on the first byte: not added
        if (!unix && tls.client().enabled()) {
            ch.pipeline().addLast("tls-direct", tls.directTlsDetector());
        }
        ch.pipeline().addLast("startup", new StartupDecoder(loginPacketLimit, sessionSettings.maxPacketSize()));
        ch.pipeline().addLast(RunJoiner.NAME, new RunJoiner());
        ch.pipeline().addLast("session", new ClientSession(this, unix));
    }

    private void serverCreated(ServerConnection conn) {
        conn.internal().checkQuery(routing.config().serverCheckQuery().orElse(""));
        DatabaseStats dbStats = stats.of(conn.database());
        conn.internal().countReplies(n -> dbStats.add(DatabaseStats.SENT, n));
        servers.put(conn.id(), conn);
        open.add(conn.channel());
        conn.channel().closeFuture().addListener(f -> {
            servers.remove(conn.id());
            pause.serverGone(conn.id());
        });
    }

    /** server_fast_close: idle session servers marked close_needed go now, with their clients. */
    void closeIdleServersMarkedForClosing() {
        janitor.closeIdleServersMarkedForClosing();
    }

    /** Completes on the loop once no client is connected (SHUTDOWN WAIT_FOR_CLIENTS). */
    CompletionStage<Void> noClients() {
        return drain.whenNone();
    }

    // ---- accessors for runtime and the console ------------------------------------------------

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    Transport transport() {
        return transport;
    }

    public EventLoop loop() {
        return loop;
    }

    public Routing routing() {
        return routing;
    }

    public PoolRegistry pools() {
        return pools;
    }

    public StatsRegistry stats() {
        return stats;
    }

    ReplicaChecking replicas() {
        return replicas;
    }

    public Map<Long, ServerConnection> servers() {
        return servers;
    }

    public Listeners listeners() {
        return listeners;
    }

    /** Port of the Prometheus endpoint, or -1 when {@code prometheus_listen_port} is off. */
    public int metricsPort() {
        return metrics == null ? -1 : metrics.port();
    }

    public List<Integer> tcpPorts() {
        return listeners.tcpPorts();
    }

    PauseControl pauseControl() {
        return pause;
    }

    boolean shuttingDown() {
        return shuttingDown;
    }

    void markShuttingDown() {
        shuttingDown = true;
    }

    public void console(Console c) {
        this.console = c;
    }

    public CompletableFuture<Integer> terminated() {
        return terminated;
    }

    /**
     * Swaps in a config that loaded (RELOAD, SIGHUP, SET): pools re-resolve their settings,
     * sessions see new settings at once, databases that left or changed target are handled as
     * PgBouncer does ({@link ConfigReload}), and TLS is set up again for new connections.
     *
     * @return false if the TLS settings could not be applied and the old ones stay
     */
    public boolean applyConfig(ConfigSnapshot next) {
        return reload.apply(next);
    }

    /** RELOAD / SIGHUP: re-reads the config files; false, with the old config kept, when they fail. */
    public boolean reloadFiles() {
        return reload.reloadFiles();
    }

    /**
     * Sets TLS up again from {@code next} for new connections; server connections are recycled
     * when a server_tls_* value changed, as PgBouncer >= 1.24 does. False when the new setup is
     * broken and the old one stays.
     */
    boolean reloadTls(ConfigSnapshot next) {
        Tls.Reload r = tls.reload(next.settings(), next.authType());
        if (r.serverSettingsChanged()) {
            pause.reconnect(null);
        }
        return r.applied();
    }

    void swapRouting(ConfigSnapshot next) {
        routing = new Routing(next);
        listeners.deferAccept(next.settings().flag("tcp_defer_accept"));
        sessionSettings = routing.sessionSettings();
        replicas.configChanged();
    }

    /** Stops everything at once (SHUTDOWN, SIGQUIT-equivalent, tests). */
    public void stopNow(int exitCode) {
        // once: SHUTDOWN on the console while a shutdown drains, and the drained shutdown, can
        // both stop; the second stop's closes would meet the loop the first one stopped, and
        // print a rejected-task stack trace each
        if (!stopping.compareAndSet(false, true)) {
            return;
        }
        loop.execute(() -> {
            CompletableFuture<Void> listenersClosed = listeners.closeAll();
            if (metrics != null) {
                metrics.close();
            }
            if (health != null) {
                health.close();
            }
            pools.closeAll("server shutting down");
            for (ClientSession c : List.copyOf(clients.all())) {
                c.kill("server shutting down",
                        PgError.fatal(SqlState.ADMIN_SHUTDOWN, "server shutting down"));
            }
            LoopShutdown.afterCloses(group, loop, listenersClosed, open, terminated, exitCode);
        });
    }

    // ---- SessionContext ------------------------------------------------------------------

    @Override
    public SessionSettings settings() {
        return sessionSettings;
    }

    @Override
    public ClientTls clientTls() {
        return tls.client();
    }

    @Override
    public RouteLookup route(String database, String user) {
        if (pause.disabled(database)) {
            return new RouteLookup.Refused(PgError.fatal(SqlState.PROTOCOL_VIOLATION,
                    "database \"" + database + "\" is disabled"));
        }
        RouteLookup r = routing.route(database, user);
        if (r instanceof RouteLookup.Pooled p && routing.isAutoDatabase(database) && registerAutoDatabase(database)) {
            return new RouteLookup.Pooled(p.route(), true);
        }
        return r;
    }

    /** Remembers an auto-database as PgBouncer registers one; true the first time it is seen. */
    boolean registerAutoDatabase(String database) {
        return autoDatabases.add(database);
    }

    /** The auto-databases registered so far, in order (SHOW DATABASES lists them). */
    List<String> autoDatabases() {
        return List.copyOf(autoDatabases);
    }

    @Override
    public String secret(String user) {
        return routing.secret(user);
    }

    @Override
    public void lookupUser(String database, String user, BooleanSupplier alive, Consumer<UserLookup> done) {
        authLookups.lookup(database, user, alive, done);
    }

    @Override
    public void rememberScramKeys(String user, byte[] clientKey, byte[] serverKey) {
        scramKeys.remember(user, clientKey, serverKey);
    }

    @Override
    public void checkout(PoolKey key, Waiter waiter) {
        if (routing.config().database(key.database()).isEmpty()) {
            // a login that began before its database left the config
            waiter.failed(new CheckoutFailure(CheckoutFailure.Kind.CLOSED, SqlState.PROTOCOL_VIOLATION,
                    ConfigReload.REMOVED));
            return;
        }
        pause.checkout(key, waiter);
    }

    @Override
    public void connectReplication(PoolKey key, Map<String, String> startup, ServerConnector.Callback callback) {
        dedicated.connect(key, startup, callback);
    }

    /** Replication clients' own servers, id to mode (physical / logical), for SHOW SERVERS. */
    Map<Long, String> dedicatedServers() {
        return dedicated.modes();
    }

    @Override
    public void welcome(PoolKey key, WelcomeCallback callback) {
        welcome.request(key, callback);
    }

    /** KILL or a database leaving the config: {@code database}'s pools learn their greeting anew (null: all). */
    void forgetWelcome(String database) {
        welcome.forget(database);
    }

    @Override
    public DatabaseStats stats(String database) {
        return stats.of(database);
    }

    @Override
    public ClientRegistry clients() {
        return clients;
    }

    @Override
    public Console console() {
        return console;
    }

    @Override
    public int ownUid() {
        return ownUid;
    }

    /** Cancels in flight and servers held back for them; also read by SHOW POOLS / SHOW SERVERS. */
    @Override
    public CancelForwarder cancels() {
        return cancels;
    }

    @Override
    public PeerForwarder peerCancels() {
        return peers;
    }
}
