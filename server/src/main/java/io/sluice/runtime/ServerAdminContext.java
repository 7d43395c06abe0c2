package io.sluice.runtime;

import io.sluice.admin.AdminContext;
import io.sluice.admin.ConfigRow;
import io.sluice.admin.DatabaseControl;
import io.sluice.admin.PinnedClientRow;
import io.sluice.admin.DatabaseRow;
import io.sluice.admin.DnsHostRow;
import io.sluice.admin.ListCounts;
import io.sluice.admin.PauseMode;
import io.sluice.admin.PeerPoolRow;
import io.sluice.admin.PeerRow;
import io.sluice.admin.PoolCoordinatorRow;
import io.sluice.admin.PoolRow;
import io.sluice.admin.PoolScalingRow;
import io.sluice.admin.SetOutcome;
import io.sluice.admin.ShutdownMode;
import io.sluice.admin.SocketBuffers;
import io.sluice.admin.SocketRow;
import io.sluice.admin.StatsCounters;
import io.sluice.admin.StatsRow;
import io.sluice.admin.UserRow;
import io.sluice.backend.ServerConnection;
import io.sluice.config.ConfigException;
import io.sluice.config.ConfigKeys;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.log.Log;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PoolSnapshot;
import io.sluice.pool.ServerSnapshot;
import io.sluice.pool.pressure.Pool;
import io.sluice.session.ClientRegistry;
import io.sluice.session.ClientSession;
import io.sluice.session.state.ServerSession;
import io.sluice.stats.DatabaseStats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The console's view of a running {@link SluiceServer}: rows built from the config snapshot, the
 * pool engine's snapshots and the client registry. Runs on the server's event loop.
 */
final class ServerAdminContext implements AdminContext {


    private final SluiceServer server;

    ServerAdminContext(SluiceServer server) {
        this.server = server;
    }

    private ConfigSnapshot cfg() {
        return server.routing().config();
    }

    @Override
    public String sluiceVersion() {
        return Version.sluice();
    }

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public List<ConfigRow> config() {
        return cfg().showConfigRows(true).stream()
                .map(r -> new ConfigRow(r.key(), r.value(), r.defaultValue(), "yes".equals(r.changeable())))
                .toList();
    }

    @Override
    public List<DatabaseRow> databases() {
        List<DatabaseRow> rows = new ArrayList<>();
        for (DatabaseEntry e : cfg().databases().values()) {
            rows.add(row(e));
        }
        for (String auto : server.autoDatabases()) {
            if (server.routing().isAutoDatabase(auto)) {
                cfg().database(auto).map(this::row).ifPresent(rows::add);
            }
        }
        ConfigSnapshot c = cfg();
        rows.add(new DatabaseRow("pgbouncer", null, c.listenPort(), "pgbouncer", "pgbouncer", 2, 0, 0,
                // like PgBouncer, the console database has no limits of its own: the global ones apply
                0, "statement", null, c.maxDbConnections(), 0, c.settings().intValue("max_db_client_connections"),
                server.clients().clientsOfDatabase("pgbouncer"), false, false));
        rows.sort((a, b) -> a.name().compareTo(b.name()));
        return rows;
    }

    private DatabaseRow row(DatabaseEntry e) {
        var rules = cfg().precedence();
        int current = server.pools().databaseLimit(e.name()).used();
        List<String> hosts = e.hosts();
        return new DatabaseRow(e.name(), e.host().orElse(null), e.port(), e.dbname(), e.user().orElse(null),
                rules.poolSize(e), rules.minPoolSize(e), rules.reservePoolSize(e),
                (int) rules.serverLifetime(e).toSeconds(),
                e.poolMode().map(m -> m.configName()).orElse(null),
                hosts.size() > 1 ? e.loadBalanceHosts().configName() : null,
                rules.maxDbConnections(e), current, rules.maxDbClientConnections(e),
                server.clients().clientsOfDatabase(e.name()), server.pauseControl().pausedOnItsOwn(e.name()),
                server.pauseControl().disabled(e.name()));
    }

    @Override
    public Optional<DatabaseRow> findDatabase(String name, boolean registerAutoDatabase) {
        if ("pgbouncer".equals(name)) {
            return databases().stream().filter(r -> r.name().equals(name)).findFirst();
        }
        if (registerAutoDatabase && server.routing().isAutoDatabase(name) && server.registerAutoDatabase(name)) {
            Log.global().info("registered new auto-database: " + name);
        }
        return cfg().database(name).map(this::row);
    }

    @Override
    public List<PoolRow> pools() {
        var clients = server.clients();
        List<PoolRow> rows = new ArrayList<>();
        for (Pool p : server.pools().pools()) {
            PoolSnapshot s = p.snapshot();
            String mode = server.routing().route(p.key().database(), p.key().user())
                    instanceof io.sluice.session.RouteLookup.Pooled r ? r.route().mode().configName() : null;
            // a forwarded cancel keeps its sender's connection open until PostgreSQL has it: one
            // cancel client per cancel in flight; released servers wait for theirs (being_canceled)
            int cancelling = server.cancels().activeCancels(p.key());
            int beingCanceled = server.cancels().beingCanceled(p.key());
            rows.add(new PoolRow(p.key().database(), p.key().user(), clients.active(p.key()), clients.waiting(p.key()),
                    cancelling, 0, s.svActive() - beingCanceled, cancelling, beingCanceled,
                    s.svIdle(), s.svUsed(), s.svTested(), s.svLogin(), s.maxWaitNanos() / 1000, mode,
                    loadBalanceHosts(p.key().database())));
        }
        PoolKey console = ClientRegistry.consolePool();
        rows.add(new PoolRow(console.database(), console.user(), clients.active(console), 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, "statement", null));
        // PgBouncer keeps its console pool in the one sorted pool list
        rows.sort(Comparator.comparing((PoolRow r) -> new PoolKey(r.database(), r.user()), PoolKey.SHOW_ORDER));
        return rows;
    }

    /** PgBouncer's load_balance_hosts value (lower case, as in the config) for a host list, else null. */
    private String loadBalanceHosts(String database) {
        return cfg().database(database).filter(e -> e.hosts().size() > 1)
                .map(e -> e.loadBalanceHosts().configName()).orElse(null);
    }

    @Override
    public List<SocketRow> clients() {
        List<SocketRow> rows = new ArrayList<>();
        long now = server.clock().nanoTime();
        for (ClientSession c : server.clients().byPool()) {
            OptionalLong welcomeWait = server.clients().welcomeWaitSince(c);
            String state = welcomeWait.isPresent() ? "waiting" : switch (c.state()) {
                case WAITING -> "waiting";
                case ACTIVE -> "active";
                default -> "idle";
            };
            long waitingSince = welcomeWait.orElse(c.queryStartedNanos());
            long waitMicros = waitingSince == 0 ? 0 : (now - waitingSince) / 1000;
            ServerConnection s = c.server();
            rows.add(new SocketRow("C", c.user(), c.database(), c.replication().word(), state, c.remote().address(), c.remote().port(),
                    c.local().address(), c.local().port(), c.connectTimeMillis(), c.requestTimeMillis(), waitMicros,
                    false, c.id(), s == null ? null : s.id(), c.remotePid(), c.tls() == null ? "" : c.tls().describe(),
                    c.applicationName(), c.preparedStatements(), c.id(),
                    SocketBuffers.NONE));
        }
        return rows;
    }

    @Override
    public List<SocketRow> servers() {
        Map<Long, Long> linkedClient = new HashMap<>();
        for (ClientSession c : server.clients().all()) {
            if (c.server() != null) {
                linkedClient.put(c.server().id(), c.id());
            }
        }
        List<SocketRow> rows = new ArrayList<>();
        server.dedicatedServers().forEach((id, mode) -> {
            ServerConnection conn = server.servers().get(id);
            if (conn != null) {
                rows.add(serverRow(conn, conn.user(), conn.database(), mode, "active", linkedClient.get(id)));
            }
        });
        for (Pool p : server.pools().pools()) {
            for (ServerSnapshot s : p.snapshot().servers()) {
                ServerConnection conn = s.handle() instanceof ServerConnection sc ? sc : null;
                if (conn == null) {
                    continue;
                }
                String state = server.cancels().beingCanceled(conn) ? "being_canceled" : s.state();
                rows.add(serverRow(conn, p.key().user(), p.key().database(), "none", state,
                        linkedClient.get(conn.id())));
            }
        }
        return rows;
    }

    private SocketRow serverRow(ServerConnection conn, String user, String database, String replication,
                                String state, Long link) {
        return new SocketRow("S", user, database, replication, state,
                conn.remote().address(), conn.remote().port(), conn.local().address(), conn.local().port(),
                conn.connectTimeMillis(), conn.requestTimeMillis(), 0,
                server.pauseControl().closeNeeded(conn.id()), conn.id(),
                link, conn.backendPid(), tlsText(conn), conn.applicationName(),
                conn.sessionState() instanceof ServerSession ss ? ss.preparedCount() : 0, conn.id(), SocketBuffers.NONE);
    }

    private static String tlsText(ServerConnection conn) {
        io.sluice.tls.TlsInfo info = io.sluice.tls.TlsInfo.of(conn.channel());
        return info == null ? "" : info.describe();
    }

    @Override
    public List<SocketRow> sockets() {
        // SHOW SOCKETS names the list each socket is on (PgBouncer's cl_active, sv_idle, ...)
        List<SocketRow> rows = new ArrayList<>();
        for (SocketRow r : clients()) {
            rows.add(r.withState(r.state().equals("waiting") ? "cl_waiting" : "cl_active"));
        }
        for (SocketRow r : servers()) {
            rows.add(r.withState(r.state().equals("new") ? "sv_login" : "sv_" + r.state()));
        }
        return rows;
    }

    @Override
    public List<SocketRow> activeSockets() {
        return List.of();
    }

    @Override
    public List<UserRow> users() {
        List<UserRow> rows = new ArrayList<>();
        ConfigSnapshot c = cfg();
        for (String name : userNames(c)) {
            var u = Optional.ofNullable(c.users().get(name));
            rows.add(new UserRow(name,
                    u.filter(x -> x.poolSize().isPresent()).map(x -> x.poolSize().getAsInt()).orElse(null),
                    u.filter(x -> x.reservePoolSize().isPresent()).map(x -> x.reservePoolSize().getAsInt()).orElse(null),
                    u.flatMap(x -> x.poolMode()).map(m -> m.configName()).orElse(null),
                    c.precedence().maxUserConnections(name), server.pools().userLimit(name).used(),
                    c.precedence().maxUserClientConnections(name),
                    server.clients().clientsOfUser(name)));
        }
        return rows;
    }

    /** SHOW USERS' rows: [users], the auth file and the console's own user, as PgBouncer lists them. */
    static java.util.Set<String> userNames(ConfigSnapshot c) {
        java.util.Set<String> names = new java.util.TreeSet<>(c.users().keySet());
        c.authFile().ifPresent(f -> names.addAll(f.users().keySet()));
        names.add("pgbouncer");
        return names;
    }

    private static StatsCounters counters(long[] v) {
        return new StatsCounters(v[DatabaseStats.ASSIGNMENTS], v[DatabaseStats.XACTS], v[DatabaseStats.QUERIES],
                v[DatabaseStats.RECEIVED], v[DatabaseStats.SENT], v[DatabaseStats.XACT_TIME],
                v[DatabaseStats.QUERY_TIME], v[DatabaseStats.WAIT_TIME], v[DatabaseStats.CLIENT_PARSE],
                v[DatabaseStats.SERVER_PARSE], v[DatabaseStats.BIND]);
    }

    @Override
    public List<StatsRow> stats() {
        List<StatsRow> rows = new ArrayList<>();
        for (DatabaseStats d : server.stats().all()) {
            rows.add(new StatsRow(d.database(), counters(d.totals()), counters(server.stats().averages(d))));
        }
        return rows;
    }

    @Override
    public StatsCounters totalCounters() {
        return counters(server.stats().totals());
    }

    @Override
    public StatsCounters totalAverages() {
        return counters(server.stats().averages());
    }

    @Override
    public ListCounts lists() {
        int login = server.clients().loggingIn();
        // PgBouncer's used_clients is every client object in use: logins and the console included
        int used = server.clients().total();
        ConfigSnapshot c = cfg();
        // PgBouncer counts every user object, the console's pgbouncer user included (= SHOW USERS rows)
        int users = userNames(c).size();
        return new ListCounts(c.databases().size() + 1, users, c.peers().size(), server.pools().pools().size() + 1,
                server.peerCancels().counts().size(), 0, used, login, 0, server.servers().size(), 0, 0, 0, 0);
    }

    @Override
    public List<PeerRow> peers() {
        return cfg().peers().values().stream()
                .map(p -> new PeerRow(p.peerId(), p.host(), p.port(), p.poolSize().orElse(cfg().defaultPoolSize())))
                .toList();
    }

    @Override
    public List<PeerPoolRow> peerPools() {
        return server.peerCancels().counts().stream()
                .map(c -> new PeerPoolRow(c.peerId(), c.activeCancelReq(), c.waitingCancelReq(), c.activeCancel(), c.login()))
                .toList();
    }

    @Override
    public List<DnsHostRow> dnsHosts() {
        return List.of();
    }

    @Override
    public List<PoolScalingRow> poolScaling() {
        return server.pools().scaling().stream()
                .map(s -> new PoolScalingRow(s.key().user(), s.key().database(), s.inflight(), s.creates(),
                        s.gateWaits(), s.gateBudgetExhausted(), s.anticipationNotify(), s.anticipationTimeout(),
                        s.createFallback(), s.replenishDeferred()))
                .toList();
    }

    @Override
    public List<PinnedClientRow> pinnedClients() {
        List<PinnedClientRow> rows = new ArrayList<>();
        for (ClientSession c : server.clients().pins().all()) {
            ServerConnection s = c.server();
            String reason = c.pinReason();
            rows.add(new PinnedClientRow(c.database(), c.user(), c.id(), c.remote().address(), c.remote().port(),
                    s == null ? 0 : s.id(), s == null ? 0 : s.backendPid(), reason == null ? "" : reason));
        }
        return rows;
    }

    @Override
    public List<PoolCoordinatorRow> poolCoordinators() {
        return server.pools().coordinators().stream()
                .map(c -> new PoolCoordinatorRow(c.database(), c.maxDbConnections(), c.current(), c.reserveSize(),
                        c.reserveUsed(), c.evictions(), c.reserveAcquisitions(), c.exhaustions()))
                .toList();
    }

    @Override
    public List<io.sluice.admin.HostRow> hosts() {
        return server.replicas().rows();
    }

    @Override
    public PauseMode pauseMode() {
        return server.pauseControl().pausedAll() ? PauseMode.PAUSE : PauseMode.NONE;
    }

    @Override
    public boolean shuttingDown() {
        return server.shuttingDown();
    }

    private static <T> CompletionStage<T> notYet(String what) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("not supported: " + what));
    }

    @Override
    public void logInfo(String line) {
        Log.global().info(line);
    }

    @Override
    public void logError(String line) {
        Log.global().error(line);
    }

    @Override
    public DatabaseControl control() {
        return server.pauseControl();
    }

    @Override
    public CompletionStage<Void> suspend() {
        // SUSPEND exists to hand sockets to a new process (-R); Sluice restarts through so_reuseport.
        return notYet("SUSPEND (it prepares -R's socket hand-over, which Sluice does not do); " + Cli.RESTART_RECIPE);
    }

    @Override
    public boolean killClient(long id) {
        ClientSession c = server.clients().byId(id);
        if (c == null) {
            return false;
        }
        c.kill("admin forced disconnect", io.sluice.proto.PgError.fatal("08P01", "admin forced disconnect"));
        return true;
    }

    @Override
    public void shutdown(ShutdownMode mode) {
        ServerLifecycle lifecycle = new ServerLifecycle(server);
        switch (mode) {
            case IMMEDIATE -> lifecycle.shutdownNow();
            case WAIT_FOR_SERVERS -> lifecycle.shutdownWaitForServers();
            case WAIT_FOR_CLIENTS -> lifecycle.shutdownWaitForClients();
            default -> throw new IllegalArgumentException(String.valueOf(mode));
        }
    }

    @Override
    public CompletionStage<Boolean> reload() {
        return CompletableFuture.completedFuture(server.reloadFiles());
    }

    @Override
    public SetOutcome set(String key, String value) {
        var fixed = ConfigKeys.find(key.strip()).filter(k -> !k.changeable());
        if (fixed.isPresent()) {
            // PgBouncer answers SET of a key read only at start with success and changes nothing
            Log.global().warning("SET " + fixed.get().name() + " ignored: it takes effect only at start");
            return SetOutcome.OK;
        }
        try {
            boolean tlsApplied = server.applyConfig(cfg().withSetting(key, value));
            return tlsApplied || !(key.contains("_tls_") || key.contains("_tls13_")) ? SetOutcome.OK
                    : SetOutcome.OK_TLS_NOT_APPLIED;
        } catch (ConfigException e) {
            Log.global().error(e.getMessage());
            return SetOutcome.FAILED;
        }
    }
}
