package io.sluice.runtime;

import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.admin.AdminValues;
import io.sluice.admin.HostRow;
import io.sluice.backend.BackendTarget;
import io.sluice.backend.CheckQuery;
import io.sluice.backend.NettyServerConnector;
import io.sluice.backend.ServerConnection;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.ServerAddress;
import io.sluice.hosts.Check;
import io.sluice.hosts.HostHealth;
import io.sluice.hosts.HostRole;
import io.sluice.hosts.ProbeResult;
import io.sluice.hosts.ProbeRows;
import io.sluice.hosts.ReplicaMonitor;
import io.sluice.log.Log;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Clock;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the replica lag checks of {@link ReplicaMonitor} against real servers: one check
 * connection per host (kept open between checks, named {@value #APP_NAME} in
 * pg_stat_activity), logged in as the database's forced {@code user=} or else its
 * {@code auth_user}; drains a host that leaves service (its servers are retired: idle ones close
 * now, busy ones when their client releases them); and lists the hosts for SHOW HOSTS and the
 * metrics. Event loop only.
 */
final class ReplicaChecking {
    static final String APP_NAME = "sluice lag check";
    private static final long TICK_MILLIS = 50;

    private final SluiceServer server;
    private final NettyServerConnector connector;
    private final HostRouting hosts;
    private final ReplicaMonitor monitor;
    private final Map<String, ServerConnection> checkConnections = new HashMap<>();
    /** The tick, scheduled only while some database has lag checks; null otherwise. */
    private ScheduledFuture<?> ticking;

    ReplicaChecking(SluiceServer server, NettyServerConnector connector, HostRouting hosts) {
        this.server = server;
        this.connector = connector;
        this.hosts = hosts;
        this.monitor = new ReplicaMonitor(this::probe, this::drain, Clock.SYSTEM, System::currentTimeMillis);
    }

    void start() {
        configChanged();
    }

    /**
     * Runs the tick while some database has lag checks, and stops it when none has, after a last
     * tick that drops what the checks kept: a pooler without lag checks, most of them, does not
     * wake 20 times a second for nothing. At start and after each config swap; runs on the loop,
     * as the tick does (a swap may come from another thread).
     */
    void configChanged() {
        if (!server.loop().inEventLoop()) {
            server.loop().execute(this::configChanged);
            return;
        }
        boolean wanted = !specs(server.routing().config()).isEmpty();
        if (wanted && ticking == null) {
            ticking = server.loop().scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        } else if (!wanted && ticking != null) {
            ticking.cancel(false);
            ticking = null;
            tick();
        }
    }

    boolean inService(String database, ServerAddress host) {
        return monitor.inService(database, host);
    }

    List<HostHealth> hosts(String database) {
        return monitor.hosts(database);
    }

    private void tick() {
        Map<String, ReplicaMonitor.Spec> specs = specs(server.routing().config());
        monitor.tick(specs);
        checkConnections.entrySet().removeIf(en -> {
            boolean gone = !specs.containsKey(en.getKey().substring(0, en.getKey().indexOf('|')));
            if (gone) {
                en.getValue().close("database has no lag checks any more");
            }
            return gone;
        });
    }

    /** The databases whose lag is checked, in config order. */
    private Map<String, ReplicaMonitor.Spec> specs(ConfigSnapshot config) {
        Map<String, ReplicaMonitor.Spec> specs = new LinkedHashMap<>();
        for (DatabaseEntry e : config.databases().values()) {
            if (e.replicaChecks().enabled() && !DatabaseEntry.FALLBACK.equals(e.name())
                    && checkUser(e, config).isPresent()) {
                specs.put(e.name(), new ReplicaMonitor.Spec(e.addresses(), e.replicaChecks()));
            }
        }
        return specs;
    }

    private Optional<String> checkUser(DatabaseEntry e, ConfigSnapshot config) {
        return e.user().or(e::authUser)
                .or(() -> Optional.of(config.settings().string("auth_user")).filter(u -> !u.isEmpty()));
    }

    private void probe(String db, ServerAddress host, Consumer<ProbeResult> done) {
        ConfigSnapshot config = server.routing().config();
        DatabaseEntry e = config.databases().get(db);
        long timeout = Math.max(TimeUnit.SECONDS.toNanos(2), 2 * e.replicaChecks().interval().toNanos());
        String k = db + "|" + host.label();
        boolean[] answered = {false};
        var timer = server.loop().schedule(() -> {
            ServerConnection c = checkConnections.remove(k);
            if (c != null) {
                c.close("lag check timed out");
            }
            if (!answered[0]) {
                answered[0] = true;
                done.accept(ProbeResult.failed("lag check timed out"));
            }
        }, timeout, TimeUnit.NANOSECONDS);
        Consumer<ProbeResult> finish = r -> {
            timer.cancel(false);
            if (!answered[0]) {
                answered[0] = true;
                done.accept(r);
            }
        };
        ServerConnection open = checkConnections.get(k);
        if (open != null && open.isOpen()) {
            query(k, open, finish);
            return;
        }
        checkConnections.remove(k);
        PoolKey key = new PoolKey(db, checkUser(e, config).orElseThrow());
        BackendTarget base = hosts.at(key, host);
        Map<String, String> startup = new LinkedHashMap<>(base.startupParams());
        startup.put("application_name", APP_NAME);
        connector.connectTo(key, new BackendTarget(host.host(), host.port(), startup, base.credentials(), null, timeout),
                new ServerConnector.Callback() {
                    @Override
                    public void connected(ServerHandle handle) {
                        ServerConnection c = ServerConnection.of(handle);
                        checkConnections.put(k, c);
                        query(k, c, finish);
                    }

                    @Override
                    public void failed(String sqlState, String message) {
                        finish.accept(ProbeResult.failed(message));
                    }

                    @Override
                    public void rejected(String sqlState, String message) {
                        finish.accept(ProbeResult.failed(message));
                    }
                });
    }

    private void query(String k, ServerConnection c, Consumer<ProbeResult> finish) {
        CheckQuery.run(c, ProbeRows.SQL, a -> {
            if (a.error() != null) {
                checkConnections.remove(k);
                c.close("lag check failed: " + a.error());
                finish.accept(ProbeResult.failed(a.error()));
            } else {
                finish.accept(ProbeRows.parse(a.rows()));
            }
        });
    }

    /** The host left service: no server of it is handed out again; idle ones close now. */
    private void drain(String db, ServerAddress host) {
        HostHealth h = monitor.hosts(db).stream().filter(x -> x.address().equals(host)).findFirst().orElse(null);
        Check last = h == null ? null : h.last();
        Log.global().warning("host " + host.label() + " of database " + db + " is " + (h == null ? "out" : h.state().word())
                + (last == null ? "" : last.reachable() ? ": lag " + last.lagSeconds() + " s (" + last.lagBytes()
                + " bytes)" : ": " + last.error()) + "; its servers close once released");
        for (ServerConnection c : servers(db, host)) {
            c.retire();
        }
        for (Pool p : server.pools().pools()) {
            if (p.key().database().equals(db)) {
                for (PooledServer s : p.idleServers()) {
                    if (s.handle().retired()) {
                        p.closeIdle(s, "host draining");
                    }
                }
            }
        }
    }

    /** Pool servers of {@code db} open to {@code host} (not the check connections). */
    private List<ServerConnection> servers(String db, ServerAddress host) {
        List<ServerConnection> out = new ArrayList<>();
        for (ServerConnection c : server.servers().values()) {
            BackendTarget t = c.target();
            if (db.equals(c.database()) && c.isOpen() && Objects.equals(t.host(), host.host()) && t.port() == host.port()
                    && !APP_NAME.equals(t.startupParams().get("application_name"))) {
                out.add(c);
            }
        }
        return out;
    }

    List<HostRow> rows() {
        List<HostRow> rows = new ArrayList<>();
        for (String db : monitor.databases()) {
            for (HostHealth h : monitor.hosts(db)) {
                Check c = h.last();
                boolean replica = c != null && c.reachable() && h.role() == HostRole.REPLICA;
                BigDecimal secs = replica && !Double.isNaN(c.lagSeconds())
                        ? BigDecimal.valueOf(c.lagSeconds()).setScale(3, RoundingMode.HALF_UP) : null;
                Long bytes = replica && c.lagBytes() >= 0 ? c.lagBytes() : null;
                rows.add(new HostRow(db, h.address().label(), h.role().word(), h.state().word(), secs, bytes,
                        replica ? c.source() : null, c == null ? null : AdminValues.timestamp(h.lastCheckMillis()),
                        servers(db, h.address()).size()));
            }
        }
        return rows;
    }
}
