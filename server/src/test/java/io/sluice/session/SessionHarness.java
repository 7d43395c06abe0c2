package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.auth.AuthMethod;
import io.sluice.auth.UserLookup;
import io.sluice.backend.BackendCredentials;
import io.sluice.backend.BackendTarget;
import io.sluice.backend.Cancels;
import io.sluice.backend.ConnectionLogging;
import io.sluice.backend.ServerConnection;
import io.sluice.backend.ServerLogin;
import io.sluice.config.PoolMode;
import io.sluice.config.userlist.Secret;
import io.sluice.log.Log;
import io.sluice.pool.Lease;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;
import io.sluice.pool.Waiter;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrameDecoder;
import io.sluice.proto.codec.RunJoiner;
import io.sluice.proto.codec.StartupDecoder;
import io.sluice.stats.DatabaseStats;
import io.sluice.util.Clock;
import io.sluice.util.Scheduler;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Client sessions and server connections, each on a Netty {@link EmbeddedChannel}, wired
 * through a {@link SessionContext} whose pool hands out its servers in order (the first one not
 * leased), queueing checkouts while all are leased. Time is virtual.
 */
class SessionHarness implements SessionContext, Cancels {
    static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    final VirtualScheduler time = new VirtualScheduler();
    final ClientRegistry clients = new ClientRegistry();
    final EmbeddedChannel client;
    final ClientSession session;
    final EmbeddedChannel serverChannel;
    final ServerConnection server;
    final List<EmbeddedChannel> serverChannels = new ArrayList<>();
    final List<ServerConnection> servers = new ArrayList<>();
    final List<String> leaseEnds = new ArrayList<>();
    /** Each transaction's time on its server, as the relay reported it to the lease. */
    final List<Long> transactionsDone = new ArrayList<>();
    private final java.util.Set<ServerConnection> leased = new java.util.HashSet<>();
    private final java.util.ArrayDeque<Waiter> waiters = new java.util.ArrayDeque<>();
    private final Route route;
    private final DatabaseStats stats = new DatabaseStats("db");
    private final Config config;
    int checkouts;
    /** The BackendKeyData the first client got at login: {pid, secret}. */
    int[] cancelKey;
    /** A checkout not answered yet when {@link Config#holdCheckouts} is set. */
    Waiter held;
    /** The welcome a login waits for when {@link Config#holdWelcome} is set. */
    WelcomeCallback heldWelcome;
    /** What {@link Lease#closeNeeded()} answers for the servers. */
    boolean closeNeeded;

    /** Timeouts (nanoseconds, 0 = off), pool shape and other knobs, fixed before the client logs in. */
    static final class Config {
        long queryTimeout;
        long idleTransactionTimeout;
        long transactionTimeout;
        long clientIdleTimeout;
        long queryWaitNotify;
        boolean serverFastClose;
        /** Checkouts wait in {@link #held} until {@link #grantHeld()} instead of being granted at once. */
        boolean holdCheckouts;
        /** Logins wait for their pool's first server in {@link #heldWelcome} instead of being greeted at once. */
        boolean holdWelcome;
        int servers = 1;
        int maxPrepared = 200;
        int maxPinned;
        boolean logDisconnections;
        boolean logPoolerErrors;
        boolean disablePqexec;
        /** How clients log in, and the auth file's secret for every user (trust and no secret by default). */
        AuthMethod auth = AuthMethod.TRUST;
        String secret = "";
    }

    /** What {@link #withLogFile} runs. */
    interface LogFileUser {
        void run(Path log) throws Exception;
    }

    /** Runs {@code body} with the process log written to a file of its own, which it may read. */
    static void withLogFile(LogFileUser body) throws Exception {
        Path file = Files.createTempFile("sluice-session", ".log");
        Log.global().reopen(file);
        try {
            body.run(file);
        } finally {
            Log.global().reopen(null);
            Files.deleteIfExists(file);
        }
    }

    SessionHarness(PoolMode mode) {
        this(mode, new Config());
    }

    /** {@code queryTimeoutNanos}: the route's query_timeout (0 = off). */
    SessionHarness(PoolMode mode, long queryTimeoutNanos) {
        this(mode, withQueryTimeout(queryTimeoutNanos));
    }

    /** {@code servers} connections in the pool; the route's max_prepared_statements and max_pinned_servers. */
    SessionHarness(PoolMode mode, int servers, int maxPrepared, int maxPinned) {
        this(mode, shaped(servers, maxPrepared, maxPinned));
    }

    private static Config withQueryTimeout(long nanos) {
        Config c = new Config();
        c.queryTimeout = nanos;
        return c;
    }

    private static Config shaped(int servers, int maxPrepared, int maxPinned) {
        Config c = new Config();
        c.servers = servers;
        c.maxPrepared = maxPrepared;
        c.maxPinned = maxPinned;
        return c;
    }

    SessionHarness(PoolMode mode, Config config) {
        this.config = config;
        route = new Route(new PoolKey("db", "u"), mode, "DISCARD ALL", false, config.queryTimeout,
                config.idleTransactionTimeout, config.clientIdleTimeout, config.transactionTimeout, 0, 0,
                config.maxPrepared, config.maxPinned);
        var target = new BackendTarget("127.0.0.1", 5432, Map.of(), BackendCredentials.none("u"), null, 0);
        for (int i = 0; i < config.servers; i++) {
            EmbeddedChannel ch = new EmbeddedChannel();
            ServerConnection s = new ServerConnection(ch, target, "db", new ServerLogin(BackendCredentials.none("u"),
                    c -> { }, (x, m) -> { throw new AssertionError(m); }, (x, m) -> { throw new AssertionError(m); }),
                    ConnectionLogging.DEFAULTS.disconnections(), time);
            // as NettyServerConnector builds it: the joiner turns relayed frames into bytes
            ch.pipeline().addLast(new FrameDecoder(1 << 30, "Dd"), new RunJoiner(), s);
            ch.writeInbound(concat(Encoders.authentication(ALLOC, 0, new byte[0]),
                    Encoders.readyForQuery(ALLOC, TransactionStatus.IDLE)));
            serverChannels.add(ch);
            this.servers.add(s);
        }
        serverChannel = serverChannels.get(0);
        server = this.servers.get(0);
        ClientEnd first = newClient();
        session = first.session();
        client = first.channel();
    }

    /** A client end: its channel (inbound = what it sends) and its session. */
    record ClientEnd(EmbeddedChannel channel, ClientSession session) {
    }

    /** Another client, logged in and greeted (the greeting drained). */
    ClientEnd newClient() {
        ClientSession s = new ClientSession(this, false);
        EmbeddedChannel ch = new EmbeddedChannel(new StartupDecoder(4096, Integer.MAX_VALUE), new RunJoiner(), s);
        ch.writeInbound(Encoders.startup(ALLOC, Map.of("user", "u", "database", "db")));
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            while (b.readableBytes() >= 5) {
                byte type = b.readByte();
                int len = b.readInt() - 4;
                if (type == 'K' && cancelKey == null) {
                    cancelKey = new int[] {b.getInt(b.readerIndex()), b.getInt(b.readerIndex() + 4)};
                }
                b.skipBytes(len);
            }
            b.release();
        }
        return new ClientEnd(ch, s);
    }

    static ByteBuf concat(ByteBuf... parts) {
        return Unpooled.wrappedBuffer(parts);
    }

    /** Reads and releases everything written to {@code ch}; returns the message type bytes. */
    static String drain(EmbeddedChannel ch) {
        StringBuilder types = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            while (b.readableBytes() >= 5) {
                types.append((char) b.readByte());
                b.skipBytes(b.readInt() - 4);
            }
            b.release();
        }
        return types.toString();
    }

    /** What the server side answers to one simple query: CommandComplete, then ReadyForQuery. */
    void serverAnswers(TransactionStatus status) {
        serverAnswers("SELECT 1", status);
    }

    /** The same with a CommandComplete tag of the statement's kind (the router checks SET, COMMIT...). */
    void serverAnswers(String tag, TransactionStatus status) {
        serverChannel.writeInbound(concat(Encoders.commandComplete(ALLOC, tag),
                Encoders.readyForQuery(ALLOC, status)));
    }

    void clientSends(ByteBuf bytes) {
        client.writeInbound(bytes);
    }

    // ---- SessionContext -----------------------------------------------------------------------

    @Override
    public io.sluice.tls.ClientTls clientTls() {
        return io.sluice.tls.ClientTls.disabled();
    }

    @Override
    public SessionSettings settings() {
        return new SessionSettings(config.auth, Optional.empty(), Set.of(), Set.of(), 100, 0, Set.of(),
                Set.of("application_name"), false, config.logDisconnections, config.logPoolerErrors,
                config.disablePqexec, false, Integer.MAX_VALUE, 6432, config.queryWaitNotify, config.serverFastClose);
    }

    @Override
    public Clock clock() {
        return time;
    }

    @Override
    public Scheduler scheduler() {
        return time;
    }

    @Override
    public RouteLookup route(String database, String user) {
        return new RouteLookup.Pooled(route);
    }

    @Override
    public String secret(String user) {
        return config.secret;
    }

    @Override
    public void rememberScramKeys(String user, byte[] clientKey, byte[] serverKey) {
    }

    @Override
    public void lookupUser(String database, String user, BooleanSupplier alive, Consumer<UserLookup> done) {
        done.accept(new UserLookup.Known(Secret.of(config.secret)));
    }

    @Override
    public void checkout(PoolKey key, Waiter waiter) {
        checkouts++;
        if (config.holdCheckouts) {
            held = waiter;
            return;
        }
        grantFirstFree(waiter);
    }

    void grantHeld() {
        Waiter w = held;
        held = null;
        grantFirstFree(w);
    }

    private void grantFirstFree(Waiter waiter) {
        for (ServerConnection s : servers) {
            if (!leased.contains(s) && s.isOpen()) {
                grant(waiter, s);
                return;
            }
        }
        waiters.add(waiter);
    }

    private void serveWaiters() {
        for (ServerConnection s : servers) {
            if (leased.contains(s) || !s.isOpen()) {
                continue;
            }
            Waiter next;
            while ((next = waiters.poll()) != null && !next.isAlive()) {
                // gone while it waited
            }
            if (next == null) {
                return;
            }
            grant(next, s);
        }
    }

    private void grant(Waiter waiter, ServerConnection chosen) {
        leased.add(chosen);
        waiter.granted(new Lease() {
            private boolean ended;

            @Override
            public ServerHandle server() {
                return chosen;
            }

            @Override
            public void release() {
                end("release");
            }

            @Override
            public boolean closeNeeded() {
                return closeNeeded;
            }

            @Override
            public void transactionDone(long nanos) {
                transactionsDone.add(nanos);
            }

            @Override
            public void discard(String reason) {
                end("discard: " + reason);
                chosen.close(reason);
            }

            private void end(String how) {
                if (ended) {
                    throw new AssertionError("lease ended twice");
                }
                ended = true;
                leaseEnds.add(how);
                leased.remove(chosen);
                serveWaiters();
            }
        });
    }

    @Override
    public void welcome(PoolKey key, WelcomeCallback callback) {
        if (config.holdWelcome) {
            heldWelcome = callback;
            return;
        }
        callback.welcome(io.sluice.proto.codec.ParameterStatuses.of(Map.of("server_version", "15.0")));
    }

    @Override
    public DatabaseStats stats(String database) {
        return stats;
    }

    @Override
    public ClientRegistry clients() {
        return clients;
    }

    @Override
    public Console console() {
        throw new UnsupportedOperationException("no console in relay tests");
    }

    @Override
    public int ownUid() {
        return -1;
    }

    /** The startup parameters a replication client's dedicated server was opened with; it gets {@link #server}. */
    Map<String, String> replicationStartup;

    @Override
    public void connectReplication(PoolKey key, Map<String, String> startup, ServerConnector.Callback callback) {
        replicationStartup = startup;
        callback.connected(server);
    }

    /** Cancels complete at once, unless a test says otherwise. */
    @Override
    public Cancels cancels() {
        return this;
    }

    @Override
    public void cancel(ServerConnection server, Runnable done) {
        done.run();
    }

    @Override
    public void whenDone(ServerConnection server, Runnable then) {
        then.run();
    }

    @Override
    public boolean cancelling(ServerConnection server) {
        return false;
    }

    /** Peering off: no peer to forward to. */
    @Override
    public io.sluice.backend.PeerCancels peerCancels() {
        return new io.sluice.backend.PeerCancels() {
            @Override
            public int peerId() {
                return 0;
            }

            @Override
            public boolean forward(int peerId, int pid, int secret, Runnable done) {
                return false;
            }
        };
    }

}
