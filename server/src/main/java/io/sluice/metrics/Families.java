package io.sluice.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * The metric table. Three groups, each named as the tool that defined it:
 * <ul>
 * <li>prometheus-community pgbouncer_exporter (its {@code collector.go} mapping of SHOW
 * DATABASES, STATS_TOTALS, POOLS, LISTS, CONFIG and VERSION);</li>
 * <li>Debian's prometheus-pgbouncer-exporter 1.7 (SHOW POOLS, DATABASES, LISTS; its SHOW STATS
 * collector reads {@code total_requests}, a column PgBouncer dropped in 1.8, so it never produces
 * metrics against a current PgBouncer and is left out);</li>
 * <li>Sluice's pool-pressure families (spec "Observability") from SHOW POOL_SCALING and
 * POOL_COORDINATOR, pinned clients per pool from SHOW PINNED_CLIENTS ({@link PinnedPerPool}), and
 * the replica lag checks from SHOW HOSTS.</li>
 * </ul>
 * The runtime only has to provide the SHOW tables named in {@link #SOURCES}. Immutable.
 */
public final class Families {
    /** SHOW commands the table reads. */
    public static final List<String> SOURCES =
            List.of("DATABASES", "POOLS", "STATS_TOTALS", "LISTS", "CONFIG", "VERSION", "POOL_SCALING",
                    "POOL_COORDINATOR", "PINNED_CLIENTS", "HOSTS");

    /** The version family (an info metric, label {@code version}). */
    public static final String VERSION_INFO = "pgbouncer_version_info";
    /** Scrape success, always 1 when Sluice answers. */
    public static final String UP = "pgbouncer_up";

    private static final double MICROS = 1e-6;
    private static final List<Family> ALL = build();

    private Families() {
    }

    public static List<Family> all() {
        return ALL;
    }

    private static List<Family> build() {
        List<Family> f = new ArrayList<>();
        // ---- prometheus-community pgbouncer_exporter ----
        List<String> dbLabels = List.of("name", "host", "port", "database", "force_user", "pool_mode");
        for (String[] m : new String[][] {
                {"pool_size", "pool_size", "Maximum number of server connections"},
                {"min_pool_size", "min_pool_size", "Minimum number of server connections"},
                {"reserve_pool_size", "reserve_pool", "Maximum number of additional connections for this database"},
                {"max_connections", "max_connections", "Maximum number of allowed connections for this database"},
                {"current_connections", "current_connections", "Current number of connections for this database"},
                {"paused", "paused", "1 if this database is currently paused, else 0"},
                {"disabled", "disabled", "1 if this database is currently disabled, else 0"}}) {
            f.add(new Family("DATABASES", m[0], null, "pgbouncer_databases_" + m[1], MetricKind.GAUGE, 1, dbLabels,
                    dbLabels, m[2]));
        }
        List<String> db = List.of("database");
        for (String[] m : new String[][] {
                {"query_count", "queries_pooled", "1", "Total number of SQL queries pooled"},
                {"query_time", "queries_duration_seconds", "u", "Total number of seconds spent by pgbouncer when"
                        + " actively connected to PostgreSQL, executing queries"},
                {"bytes_received", "received_bytes", "1", "Total volume in bytes of network traffic received by"
                        + " pgbouncer, shown as bytes"},
                {"bytes_sent", "sent_bytes", "1", "Total volume in bytes of network traffic sent by pgbouncer,"
                        + " shown as bytes"},
                {"wait_time", "client_wait_seconds", "u", "Time spent by clients waiting for a server in seconds"},
                {"xact_count", "sql_transactions_pooled", "1", "Total number of SQL transactions pooled"},
                {"xact_time", "server_in_transaction_seconds", "u", "Total number of seconds spent by pgbouncer"
                        + " when connected to PostgreSQL in a transaction, either idle in transaction or executing"
                        + " queries"},
                {"client_parse_count", "client_parses", "1", "Total number of prepared statement Parse messages"
                        + " received from clients"},
                {"server_parse_count", "server_parses", "1", "Total number of prepared statement Parse messages"
                        + " sent by pgbouncer to PostgreSQL"},
                {"bind_count", "binds", "1", "Total number of prepared statements readied for execution with a"
                        + " Bind message"}}) {
            f.add(new Family("STATS_TOTALS", m[0], null, "pgbouncer_stats_" + m[1], MetricKind.COUNTER,
                    m[2].equals("u") ? MICROS : 1, db, db, m[3]));
        }
        List<String> pool = List.of("database", "user");
        for (String[] m : new String[][] {
                {"cl_active", "client_active_connections", "Client connections linked to server connection and"
                        + " able to process queries, shown as connection"},
                {"cl_active_cancel_req", "client_active_cancel_connections", "Client connections that have"
                        + " forwarded query cancellations to the server and are waiting for the server response"},
                {"cl_waiting", "client_waiting_connections", "Client connections waiting on a server connection,"
                        + " shown as connection"},
                {"cl_waiting_cancel_req", "client_waiting_cancel_connections", "Client connections that have not"
                        + " forwarded query cancellations to the server yet"},
                {"sv_active", "server_active_connections", "Server connections linked to a client connection,"
                        + " shown as connection"},
                {"sv_active_cancel", "server_active_cancel_connections", "Server connections that are currently"
                        + " forwarding a cancel request"},
                {"sv_being_canceled", "server_being_canceled_connections", "Servers that normally could become"
                        + " idle but are waiting to do so until all in-flight cancel requests have completed"},
                {"sv_idle", "server_idle_connections", "Server connections idle and ready for a client query,"
                        + " shown as connection"},
                {"sv_used", "server_used_connections", "Server connections idle more than server_check_delay,"
                        + " needing server_check_query, shown as connection"},
                {"sv_tested", "server_testing_connections", "Server connections currently running either"
                        + " server_reset_query or server_check_query, shown as connection"},
                {"sv_login", "server_login_connections", "Server connections currently in the process of logging"
                        + " in, shown as connection"},
                {"maxwait", "client_maxwait_seconds", "Age of oldest unserved client connection, shown as second"}}) {
            f.add(new Family("POOLS", m[0], null, "pgbouncer_pools_" + m[1], MetricKind.GAUGE, 1, pool, pool, m[2]));
        }
        // SHOW LISTS rows: both exporters use the plain names for the first eight rows.
        String[][] lists = {
                {"databases", "databases", "Count of databases"}, {"users", "users", "Count of users"},
                {"pools", "pools", "Count of pools"}, {"free_clients", "free_clients", "Count of free clients"},
                {"used_clients", "used_clients", "Count of used clients"},
                {"login_clients", "login_clients", "Count of clients in login state"},
                {"free_servers", "free_servers", "Count of free servers"},
                {"used_servers", "used_servers", "Count of used servers"},
                {"dns_names", "cached_dns_names", "Count of DNS names in the cache"},
                {"dns_zones", "cached_dns_zones", "Count of DNS zones in the cache"},
                {"dns_queries", "in_flight_dns_queries", "Count of in-flight DNS queries"},
                // Debian's exporter's names for the DNS rows:
                {"dns_names", "dns_names", "DNS names (dns_names)"}, {"dns_zones", "dns_zones", "DNS zones (dns_zones)"},
                {"dns_queries", "dns_queries", "DNS queries (dns_queries)"},
                {"dns_pending", "dns_pending", "Pending DNS queries (dns_pending)"}};
        for (String[] m : lists) {
            f.add(new Family("LISTS", "items", m[0], "pgbouncer_" + m[1], MetricKind.GAUGE, 1, List.of(), List.of(),
                    m[2]));
        }
        f.add(new Family("CONFIG", "value", "max_client_conn", "pgbouncer_config_max_client_connections",
                MetricKind.GAUGE, 1, List.of(), List.of(), "Config maximum number of client connections"));
        f.add(new Family("CONFIG", "value", "max_user_connections", "pgbouncer_config_max_user_connections",
                MetricKind.GAUGE, 1, List.of(), List.of(), "Config maximum number of server connections per user"));
        // ---- Debian prometheus-pgbouncer-exporter 1.7 ----
        f.add(new Family("POOLS", "cl_active", null, "pgbouncer_active_clients", MetricKind.GAUGE, 1, pool, pool,
                "Client connections that are linked to server connection and can process queries (cl_active)"));
        f.add(new Family("POOLS", "cl_waiting", null, "pgbouncer_waiting_clients", MetricKind.GAUGE, 1, pool, pool,
                "Client connections have sent queries but have not yet got a server connection (cl_waiting)"));
        f.add(new Family("DATABASES", "pool_size", null, "pgbouncer_pool_size", MetricKind.GAUGE, 1, db, db,
                "Pool size (pool_size)"));
        f.add(new Family("DATABASES", "reserve_pool_size", null, "pgbouncer_reserve_pool", MetricKind.GAUGE, 1, db, db,
                "Reserve pool size (reserve_pool; reserve_pool_size since PgBouncer 1.24)"));
        // ---- Sluice pool pressure ----
        List<String> scalingLabels = List.of("type", "database", "user");
        for (String[] m : new String[][] {
                {"creates", "creates_started"}, {"gate_waits", "burst_gate_waits"},
                {"gate_budget_ex", "burst_gate_budget_exhausted"}, {"antic_notify", "anticipation_wakes_notify"},
                {"antic_timeout", "anticipation_wakes_timeout"}, {"create_fallback", "create_fallback"},
                {"replenish_def", "replenish_deferred"}}) {
            f.add(new Family("POOL_SCALING", m[0], null, "sluice_pool_scaling", MetricKind.COUNTER, 1, scalingLabels,
                    List.of("=" + m[1], "database", "user"), "Pool scaling events since start (SHOW POOL_SCALING)"));
        }
        f.add(new Family("POOL_SCALING", "inflight", null, "sluice_pool_scaling", MetricKind.TEXT_GAUGE, 1,
                scalingLabels, List.of("=inflight_creates", "database", "user"), "Server connects in flight now"));
        List<String> coordLabels = List.of("type", "database");
        for (String[] m : new String[][] {
                {"evictions", "evictions"}, {"reserve_acq", "reserve_acquisitions"}, {"exhaustions", "exhaustions"}}) {
            f.add(new Family("POOL_COORDINATOR", m[0], null, "sluice_pool_coordinator", MetricKind.COUNTER, 1,
                    coordLabels, List.of("=" + m[1], "database"),
                    "Coordinator events since start (SHOW POOL_COORDINATOR)"));
        }
        for (String[] m : new String[][] {
                {"current", "connections"}, {"max_db_conn", "max_connections"}, {"reserve_used", "reserve_in_use"},
                {"reserve_size", "reserve_pool_size"}}) {
            f.add(new Family("POOL_COORDINATOR", m[0], null, "sluice_pool_coordinator", MetricKind.TEXT_GAUGE, 1,
                    coordLabels, List.of("=" + m[1], "database"), "Coordinator state now (SHOW POOL_COORDINATOR)"));
        }
        f.add(new Family(PinnedPerPool.TABLE, "pinned", null, "sluice_pool_pinned_clients", MetricKind.GAUGE, 1,
                pool, pool, "Clients that keep their server between transactions because of LISTEN, temporary"
                        + " tables, session advisory locks, WITH HOLD cursors or settings that cannot move"
                        + " (SHOW PINNED_CLIENTS)"));
        hosts(f);
        return List.copyOf(f);
    }

    /** SHOW HOSTS: lag in seconds with bytes beside, and servers open per host labelled with its state. */
    private static void hosts(List<Family> f) {
        List<String> host = List.of("database", "host", "role");
        f.add(new Family("HOSTS", "lag_seconds", null, "sluice_host_lag_seconds", MetricKind.TEXT_GAUGE, 1, host, host,
                "Replica lag in time at the last check (max_replica_lag compares this)"));
        f.add(new Family("HOSTS", "lag_bytes", null, "sluice_host_lag_bytes", MetricKind.TEXT_GAUGE, 1, host, host,
                "Replica lag in WAL bytes at the last check (shown beside the seconds, never compared)"));
        List<String> withState = List.of("database", "host", "role", "state");
        f.add(new Family("HOSTS", "servers_open", null, "sluice_host_servers_open", MetricKind.TEXT_GAUGE, 1,
                withState, withState, "Server connections open to the host; state up, draining or down"));
    }
}
