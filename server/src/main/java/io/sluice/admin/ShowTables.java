package io.sluice.admin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every SHOW command's table, keyed by its lower-case word; column names, order and types are
 * PgBouncer 1.25.2's ({@code reference/show-columns-1.25.2.tsv}). SHOW HELP and the fake
 * parameters are not tables; {@link AdminConsole} answers those.
 */
public final class ShowTables {

    /** What SHOW VERSION starts with; tools match on it. */
    public static final String PGBOUNCER_VERSION = "PgBouncer 1.25.2";

    /**
     * PgBouncer's slab caches (SHOW MEM row names). Sluice has no slab allocator; it lists the
     * same names with zeros so tools that look for them still find them.
     */
    static final List<String> MEM_NAMES = List.of(
            "user_cache", "credentials_cache", "db_cache", "peer_cache", "peer_pool_cache", "pool_cache",
            "outstanding_request_cache", "server_cache", "client_cache", "iobuf_cache", "var_list_cache",
            "server_prepared_statement_cache");

    /** A two-column (text, value) row for fixed-row tables. */
    record KeyValue(String key, Object value) {
    }

    private static final Map<String, ShowTable<?>> TABLES = build();

    private ShowTables() {
    }

    /** The table for a SHOW word (any case), or null if there is none. */
    public static ShowTable<?> find(String word) {
        return TABLES.get(word.toLowerCase(Locale.ROOT));
    }

    /** All tables in registration order, keyed by lower-case word. */
    public static Map<String, ShowTable<?>> all() {
        return TABLES;
    }

    private static Map<String, ShowTable<?>> build() {
        Map<String, ShowTable<?>> m = new LinkedHashMap<>();
        for (ShowTable<?> t : List.of(
                config(), databases(), pools(), SocketTables.clients(), SocketTables.servers(), users(),
                version(), peers(), peerPools(), fds(), SocketTables.sockets(), SocketTables.activeSockets(),
                lists(), mem(), state(), dnsHosts(), dnsZones(), StatsTables.stats(), StatsTables.statsTotals(),
                StatsTables.statsAverages(), StatsTables.totals(), poolScaling(), poolCoordinator(), pinnedClients(), hosts())) {
            m.put(t.name().toLowerCase(Locale.ROOT), t);
        }
        return Collections.unmodifiableMap(m);
    }

    private static ShowTable<ConfigRow> config() {
        return ShowTable.<ConfigRow>of("CONFIG", AdminContext::config)
                .text("key", ConfigRow::key)
                .text("value", ConfigRow::value)
                .text("default", ConfigRow::defaultValue)
                .text("changeable", r -> r.changeable() ? "yes" : "no");
    }

    private static ShowTable<DatabaseRow> databases() {
        return ShowTable.<DatabaseRow>of("DATABASES", AdminContext::databases)
                .text("name", DatabaseRow::name)
                .text("host", DatabaseRow::host)
                .int4("port", DatabaseRow::port)
                .text("database", DatabaseRow::dbname)
                .text("force_user", DatabaseRow::forceUser)
                .int4("pool_size", DatabaseRow::poolSize)
                .int4("min_pool_size", DatabaseRow::minPoolSize)
                .int4("reserve_pool_size", DatabaseRow::reservePoolSize)
                .int4("server_lifetime", DatabaseRow::serverLifetimeSeconds)
                .text("pool_mode", DatabaseRow::poolMode)
                .text("load_balance_hosts", DatabaseRow::loadBalanceHosts)
                .int4("max_connections", DatabaseRow::maxConnections)
                .int4("current_connections", DatabaseRow::currentConnections)
                .int4("max_client_connections", DatabaseRow::maxClientConnections)
                .int4("current_client_connections", DatabaseRow::currentClientConnections)
                .int4("paused", r -> r.paused() ? 1 : 0)
                .int4("disabled", r -> r.disabled() ? 1 : 0);
    }

    private static ShowTable<PoolRow> pools() {
        return ShowTable.<PoolRow>of("POOLS", AdminContext::pools)
                .text("database", PoolRow::database)
                .text("user", PoolRow::user)
                .int4("cl_active", PoolRow::clActive)
                .int4("cl_waiting", PoolRow::clWaiting)
                .int4("cl_active_cancel_req", PoolRow::clActiveCancelReq)
                .int4("cl_waiting_cancel_req", PoolRow::clWaitingCancelReq)
                .int4("sv_active", PoolRow::svActive)
                .int4("sv_active_cancel", PoolRow::svActiveCancel)
                .int4("sv_being_canceled", PoolRow::svBeingCanceled)
                .int4("sv_idle", PoolRow::svIdle)
                .int4("sv_used", PoolRow::svUsed)
                .int4("sv_tested", PoolRow::svTested)
                .int4("sv_login", PoolRow::svLogin)
                .int4("maxwait", r -> (int) (r.maxWaitMicros() / 1_000_000L))
                .int4("maxwait_us", r -> (int) (r.maxWaitMicros() % 1_000_000L))
                .text("pool_mode", PoolRow::poolMode)
                .text("load_balance_hosts", PoolRow::loadBalanceHosts);
    }

    private static ShowTable<UserRow> users() {
        return ShowTable.<UserRow>of("USERS", AdminContext::users)
                .text("name", UserRow::name)
                // C "%9d" when set, '' (not NULL) when not; PgBouncer 1.25.2 forgets to clear its
                // buffer between rows, Sluice deliberately does not copy that bug
                .text("pool_size", r -> r.poolSize() == null ? "" : AdminValues.width9(r.poolSize()))
                .text("reserve_pool_size",
                        r -> r.reservePoolSize() == null ? "" : AdminValues.width9(r.reservePoolSize()))
                .text("pool_mode", UserRow::poolMode)
                .int4("max_user_connections", UserRow::maxUserConnections)
                .int4("current_connections", UserRow::currentConnections)
                .int4("max_user_client_connections", UserRow::maxUserClientConnections)
                .int4("current_client_connections", UserRow::currentClientConnections);
    }

    private static ShowTable<String> version() {
        return ShowTable.<String>of("VERSION",
                        c -> List.of(PGBOUNCER_VERSION + " (Sluice " + c.sluiceVersion() + ")"))
                .text("version", v -> v);
    }

    private static ShowTable<PeerRow> peers() {
        return ShowTable.<PeerRow>of("PEERS", AdminContext::peers)
                .int4("peer_id", PeerRow::peerId)
                .text("host", PeerRow::host)
                .int4("port", PeerRow::port)
                .int4("pool_size", PeerRow::poolSize);
    }

    private static ShowTable<PeerPoolRow> peerPools() {
        return ShowTable.<PeerPoolRow>of("PEER_POOLS", AdminContext::peerPools)
                .int4("peer_id", PeerPoolRow::peerId)
                .int4("cl_active_cancel_req", PeerPoolRow::clActiveCancelReq)
                .int4("cl_waiting_cancel_req", PeerPoolRow::clWaitingCancelReq)
                .int4("sv_active_cancel", PeerPoolRow::svActiveCancel)
                .int4("sv_login", PeerPoolRow::svLogin);
    }

    /**
     * SHOW FDS is PgBouncer's socket takeover channel for {@code -R}; Sluice has no fd takeover,
     * so it answers the header with no rows (admin only, as in PgBouncer).
     */
    private static ShowTable<Object> fds() {
        return ShowTable.adminOnly("FDS", c -> List.of())
                .column("fd", PgType.INT4, (r, c) -> null)
                .column("task", PgType.TEXT, (r, c) -> null)
                .column("user", PgType.TEXT, (r, c) -> null)
                .column("database", PgType.TEXT, (r, c) -> null)
                .column("addr", PgType.TEXT, (r, c) -> null)
                .column("port", PgType.INT4, (r, c) -> null)
                .column("cancel", PgType.INT8, (r, c) -> null)
                .column("link", PgType.INT4, (r, c) -> null)
                .column("client_encoding", PgType.TEXT, (r, c) -> null)
                .column("std_strings", PgType.TEXT, (r, c) -> null)
                .column("datestyle", PgType.TEXT, (r, c) -> null)
                .column("timezone", PgType.TEXT, (r, c) -> null)
                .column("password", PgType.TEXT, (r, c) -> null)
                .column("scram_client_key", PgType.BYTEA, (r, c) -> null)
                .column("scram_server_key", PgType.BYTEA, (r, c) -> null);
    }

    private static ShowTable<KeyValue> lists() {
        return ShowTable.<KeyValue>of("LISTS", c -> {
            ListCounts l = c.lists();
            return List.of(
                    new KeyValue("databases", l.databases()), new KeyValue("users", l.users()),
                    new KeyValue("peers", l.peers()), new KeyValue("pools", l.pools()),
                    new KeyValue("peer_pools", l.peerPools()), new KeyValue("free_clients", l.freeClients()),
                    new KeyValue("used_clients", l.usedClients()), new KeyValue("login_clients", l.loginClients()),
                    new KeyValue("free_servers", l.freeServers()), new KeyValue("used_servers", l.usedServers()),
                    new KeyValue("dns_names", l.dnsNames()), new KeyValue("dns_zones", l.dnsZones()),
                    new KeyValue("dns_queries", l.dnsQueries()), new KeyValue("dns_pending", l.dnsPending()));
        })
                .text("list", KeyValue::key)
                .column("items", PgType.INT4, (r, c) -> r.value());
    }

    private static ShowTable<String> mem() {
        return ShowTable.<String>of("MEM", c -> MEM_NAMES)
                .text("name", n -> n)
                .int4("size", n -> 0)
                .int4("used", n -> 0)
                .int4("free", n -> 0)
                .int4("memtotal", n -> 0);
    }

    private static ShowTable<KeyValue> state() {
        return ShowTable.<KeyValue>of("STATE", c -> {
            PauseMode mode = c.pauseMode();
            return List.of(
                    new KeyValue("active", mode == PauseMode.NONE ? "yes" : "no"),
                    new KeyValue("paused", mode == PauseMode.PAUSE ? "yes" : "no"),
                    new KeyValue("suspended", mode == PauseMode.SUSPEND ? "yes" : "no"));
        })
                .text("key", KeyValue::key)
                .text("value", r -> (String) r.value());
    }

    private static ShowTable<DnsHostRow> dnsHosts() {
        return ShowTable.<DnsHostRow>of("DNS_HOSTS", AdminContext::dnsHosts)
                .text("hostname", DnsHostRow::hostname)
                .int8("ttl", DnsHostRow::ttlSeconds)
                .text("addrs", DnsHostRow::addrs);
    }

    /** Sluice resolves through the JVM and has no DNS zones to report: header only. */
    private static ShowTable<Object> dnsZones() {
        return ShowTable.of("DNS_ZONES", c -> List.of())
                .column("zonename", PgType.TEXT, (r, c) -> null)
                .column("serial", PgType.INT8, (r, c) -> null)
                .column("count", PgType.INT4, (r, c) -> null);
    }

    private static ShowTable<PoolScalingRow> poolScaling() {
        return ShowTable.<PoolScalingRow>of("POOL_SCALING", AdminContext::poolScaling)
                .text("user", PoolScalingRow::user)
                .text("database", PoolScalingRow::database)
                .int8("inflight", PoolScalingRow::inflight)
                .int8("creates", PoolScalingRow::creates)
                .int8("gate_waits", PoolScalingRow::gateWaits)
                .int8("gate_budget_ex", PoolScalingRow::gateBudgetExhausted)
                .int8("antic_notify", PoolScalingRow::anticipationNotify)
                .int8("antic_timeout", PoolScalingRow::anticipationTimeout)
                .int8("create_fallback", PoolScalingRow::createFallback)
                .int8("replenish_def", PoolScalingRow::replenishDeferred);
    }

    /** Sluice's own: never a column in PgBouncer's tables, which collectors read by position. */
    private static ShowTable<PinnedClientRow> pinnedClients() {
        return ShowTable.<PinnedClientRow>of("PINNED_CLIENTS", AdminContext::pinnedClients)
                .text("database", PinnedClientRow::database)
                .text("user", PinnedClientRow::user)
                .int8("client_id", PinnedClientRow::clientId)
                .text("addr", PinnedClientRow::addr)
                .int4("port", PinnedClientRow::port)
                .int8("server_id", PinnedClientRow::serverId)
                .int4("remote_pid", PinnedClientRow::remotePid)
                .text("reason", PinnedClientRow::reason);
    }

    private static ShowTable<PoolCoordinatorRow> poolCoordinator() {
        return ShowTable.<PoolCoordinatorRow>of("POOL_COORDINATOR", AdminContext::poolCoordinators)
                .text("database", PoolCoordinatorRow::database)
                .int8("max_db_conn", PoolCoordinatorRow::maxDbConnections)
                .int8("current", PoolCoordinatorRow::current)
                .int8("reserve_size", PoolCoordinatorRow::reserveSize)
                .int8("reserve_used", PoolCoordinatorRow::reserveUsed)
                .int8("evictions", PoolCoordinatorRow::evictions)
                .int8("reserve_acq", PoolCoordinatorRow::reserveAcquisitions)
                .int8("exhaustions", PoolCoordinatorRow::exhaustions);
    }

    /** Sluice's own: the hosts of databases with max_replica_lag, and what their last check found. */
    private static ShowTable<HostRow> hosts() {
        return ShowTable.<HostRow>of("HOSTS", AdminContext::hosts)
                .text("database", HostRow::database)
                .text("host", HostRow::host)
                .text("role", HostRow::role)
                .text("state", HostRow::state)
                .column("lag_seconds", PgType.NUMERIC, (r, c) -> r.lagSeconds())
                .int8("lag_bytes", HostRow::lagBytes)
                .text("lag_source", HostRow::lagSource)
                .text("last_check", HostRow::lastCheck)
                .int4("servers_open", HostRow::serversOpen);
    }
}
