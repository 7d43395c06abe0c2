package io.sluice.config;

import static io.sluice.config.KeyType.BOOL;
import static io.sluice.config.KeyType.INT;
import static io.sluice.config.KeyType.LIST;
import static io.sluice.config.KeyType.MODE;
import static io.sluice.config.KeyType.STRING;
import static io.sluice.config.KeyType.TIME;

import io.sluice.config.ConfigKey.Origin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The key table: every {@code [pgbouncer]} key PgBouncer 1.25.2 knows (defaults and
 * changeable flags as its SHOW CONFIG prints them) plus Sluice's pool-pressure keys. This
 * table is the single source of truth for key names, types and defaults; the golden test
 * diffs it against {@code show-config-1.25.2.tsv}.
 *
 * <p>Column legend of the rows below: name, type, default, changeable (R = RELOAD/SET may
 * change it, F = fixed until restart), supported (S = Sluice acts on it, U = accepted and
 * ignored with a warning). Immutable; safe from any thread.
 */
public final class ConfigKeys {

    private static final boolean R = true;
    private static final boolean F = false;
    private static final boolean S = true;
    private static final boolean U = false;

    /** pool_mode names, in PgBouncer's order. */
    public static final List<String> POOL_MODES = List.of("session", "transaction", "statement");
    /** sslmode names for client_tls_sslmode and server_tls_sslmode. */
    public static final List<String> SSL_MODES =
            List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");
    /** auth_type names PgBouncer accepts (pam/ldap only in builds with them). */
    public static final List<String> AUTH_TYPES =
            List.of("any", "trust", "plain", "md5", "cert", "hba", "ldap", "pam", "scram-sha-256");

    private static final String AUTH_QUERY_DEFAULT = "SELECT rolname, CASE WHEN rolvaliduntil < now() "
            + "THEN NULL ELSE rolpassword END FROM pg_authid WHERE rolname=$1 AND rolcanlogin";

    private static final Map<String, ConfigKey> KEYS;

    static {
        List<ConfigKey> rows = new ArrayList<>();
        // --- PgBouncer 1.25.2, alphabetical like SHOW CONFIG ---
        rows.add(pg("admin_users", LIST, "", R, S));
        rows.add(pg("application_name_add_host", BOOL, "0", R, S));
        rows.add(pg("auth_dbname", STRING, "", R, S));
        rows.add(pg("auth_file", STRING, "", R, S));
        rows.add(pg("auth_hba_file", STRING, "", R, S));
        rows.add(pg("auth_ident_file", STRING, "", R, S));
        rows.add(pg("auth_ldap_options", STRING, "", R, U));
        rows.add(pg("auth_query", STRING, AUTH_QUERY_DEFAULT, R, S));
        rows.add(en("auth_type", "md5", R, S, AUTH_TYPES));
        rows.add(pg("auth_user", STRING, "", R, S));
        rows.add(pg("autodb_idle_timeout", TIME, "3600", R, S));
        rows.add(pg("cancel_wait_timeout", TIME, "10", R, S));
        rows.add(pg("client_idle_timeout", TIME, "0", R, S));
        rows.add(pg("client_login_timeout", TIME, "60", R, S));
        rows.add(pg("client_tls13_ciphers", STRING, "", R, S));
        rows.add(pg("client_tls_ca_file", STRING, "", R, S));
        rows.add(pg("client_tls_cert_file", STRING, "", R, S));
        rows.add(pg("client_tls_ciphers", STRING, "default", R, S));
        rows.add(pg("client_tls_dheparams", STRING, "auto", R, S));
        rows.add(pg("client_tls_ecdhcurve", STRING, "auto", R, S));
        rows.add(pg("client_tls_key_file", STRING, "", R, S));
        rows.add(pg("client_tls_protocols", STRING, "secure", R, S));
        rows.add(en("client_tls_sslmode", "disable", R, S, SSL_MODES));
        rows.add(pg("conffile", STRING, "", R, S));
        rows.add(pg("default_pool_size", INT, "20", R, S));
        rows.add(pg("disable_pqexec", BOOL, "0", F, S));
        rows.add(pg("dns_max_ttl", TIME, "15", R, S));
        rows.add(pg("dns_nxdomain_ttl", TIME, "15", R, S));
        rows.add(pg("dns_zone_check_period", TIME, "0", R, U));
        rows.add(pg("idle_transaction_timeout", TIME, "0", R, S));
        rows.add(pg("ignore_startup_parameters", LIST, "", R, S));
        rows.add(pg("job_name", STRING, "pgbouncer", F, S));
        rows.add(pg("listen_addr", LIST, "", F, S));
        rows.add(pg("listen_backlog", INT, "128", F, S));
        rows.add(pg("listen_port", INT, "6432", F, S));
        rows.add(pg("log_connections", BOOL, "1", R, S));
        rows.add(pg("log_disconnections", BOOL, "1", R, S));
        rows.add(pg("log_pooler_errors", BOOL, "1", R, S));
        rows.add(pg("log_stats", BOOL, "1", R, S));
        rows.add(pg("logfile", STRING, "", R, S));
        rows.add(pg("max_client_conn", INT, "100", R, S));
        rows.add(pg("max_db_client_connections", INT, "0", R, S));
        rows.add(pg("max_db_connections", INT, "0", R, S));
        rows.add(pg("max_packet_size", INT, "2147483647", R, S));
        rows.add(pg("max_prepared_statements", INT, "200", R, S));
        rows.add(pg("max_user_client_connections", INT, "0", R, S));
        rows.add(pg("max_user_connections", INT, "0", R, S));
        rows.add(pg("min_pool_size", INT, "0", R, S));
        rows.add(pg("peer_id", INT, "0", R, S));
        rows.add(pg("pidfile", STRING, "", F, S));
        rows.add(pg("pkt_buf", INT, "4096", F, S));
        rows.add(en("pool_mode", "session", R, S, POOL_MODES));
        rows.add(pg("query_timeout", TIME, "0", R, S));
        rows.add(pg("query_wait_notify", TIME, "5", R, S));
        rows.add(pg("query_wait_timeout", TIME, "120", R, S));
        rows.add(pg("reserve_pool_size", INT, "0", R, S));
        rows.add(pg("reserve_pool_timeout", TIME, "5", R, S));
        rows.add(pg("resolv_conf", STRING, "", F, U));
        rows.add(pg("sbuf_loopcnt", INT, "5", R, S));
        rows.add(pg("scram_iterations", INT, "4096", R, S));
        rows.add(pg("server_check_delay", TIME, "30", R, S));
        rows.add(pg("server_check_query", STRING, "<empty>", R, S));
        rows.add(pg("server_connect_timeout", TIME, "15", R, S));
        rows.add(pg("server_fast_close", BOOL, "0", R, S));
        rows.add(pg("server_idle_timeout", TIME, "600", R, S));
        rows.add(pg("server_lifetime", TIME, "3600", R, S));
        rows.add(pg("server_login_retry", TIME, "15", R, S));
        rows.add(pg("server_reset_query", STRING, "DISCARD ALL", R, S));
        rows.add(pg("server_reset_query_always", BOOL, "0", R, S));
        rows.add(pg("server_round_robin", BOOL, "0", R, S));
        rows.add(pg("server_tls13_ciphers", STRING, "", R, S));
        rows.add(pg("server_tls_ca_file", STRING, "", R, S));
        rows.add(pg("server_tls_cert_file", STRING, "", R, S));
        rows.add(pg("server_tls_ciphers", STRING, "default", R, S));
        rows.add(pg("server_tls_key_file", STRING, "", R, S));
        rows.add(pg("server_tls_protocols", STRING, "secure", R, S));
        rows.add(en("server_tls_sslmode", "prefer", R, S, SSL_MODES));
        rows.add(pg("so_reuseport", BOOL, "0", F, S));
        rows.add(pg("stats_period", INT, "60", R, S));
        rows.add(pg("stats_users", LIST, "", R, S));
        rows.add(pg("suspend_timeout", TIME, "10", R, S));
        rows.add(pg("syslog", BOOL, "0", R, S));
        rows.add(pg("syslog_facility", STRING, "daemon", R, S));
        rows.add(pg("syslog_ident", STRING, "pgbouncer", R, S));
        rows.add(pg("tcp_defer_accept", BOOL, "1", R, S));
        rows.add(pg("tcp_keepalive", BOOL, "1", R, S));
        rows.add(pg("tcp_keepcnt", INT, "0", R, S));
        rows.add(pg("tcp_keepidle", INT, "0", R, S));
        rows.add(pg("tcp_keepintvl", INT, "0", R, S));
        rows.add(pg("tcp_socket_buffer", INT, "0", R, S));
        rows.add(pg("tcp_user_timeout", INT, "0", R, S));
        rows.add(pg("track_extra_parameters", LIST, "IntervalStyle", F, S));
        rows.add(pg("transaction_timeout", TIME, "0", R, S));
        rows.add(pg("unix_socket_dir", STRING, "/tmp", F, S));
        rows.add(pg("unix_socket_group", STRING, "", F, S));
        rows.add(pg("unix_socket_mode", MODE, "0777", F, S));
        rows.add(pg("user", STRING, "", F, S));
        rows.add(pg("verbose", INT, "", R, S));
        // --- Sluice pool pressure (docs/pressure.md; each key in docs/configuration.md) ---
        rows.add(sluice("db_reserve_pool_size", INT, "0"));
        rows.add(sluice("db_reserve_pool_timeout", TIME, "0"));
        rows.add(sluice("min_connection_lifetime", TIME, "30"));
        rows.add(sluice("min_guaranteed_pool_size", INT, "0"));
        rows.add(sluice("retain_connections_time", TIME, "30"));
        rows.add(sluice("scaling_fast_retries", INT, "10"));
        rows.add(sluice("scaling_max_parallel_creates", INT, "2"));
        rows.add(sluice("scaling_warm_pool_ratio", INT, "20"));
        // --- Sluice's session state in transaction pooling (docs/configuration.md); 0 = no bound ---
        rows.add(sluice("max_pinned_servers", INT, "0"));
        // --- Sluice's Prometheus endpoint (docs/monitoring.md); port 0 = off; bound at start only ---
        rows.add(new ConfigKey("prometheus_listen_addr", STRING, "127.0.0.1", F, S, List.of(), Origin.SLUICE));
        rows.add(new ConfigKey("prometheus_listen_port", INT, "0", F, S, List.of(), Origin.SLUICE));
        // load balancer health endpoint (HAProxy agent-check and GET /health/<db>); 0 = off
        rows.add(new ConfigKey("health_listen_addr", STRING, "127.0.0.1", F, S, List.of(), Origin.SLUICE));
        rows.add(new ConfigKey("health_listen_port", INT, "0", F, S, List.of(), Origin.SLUICE));

        rows.sort(Comparator.comparing(ConfigKey::name));
        Map<String, ConfigKey> map = new LinkedHashMap<>();
        for (ConfigKey k : rows) {
            if (map.put(k.name(), k) != null) {
                throw new IllegalStateException("duplicate key " + k.name());
            }
        }
        KEYS = Collections.unmodifiableMap(map);
    }

    private ConfigKeys() {
    }

    /** All keys (PgBouncer's and Sluice's) in alphabetical order. */
    public static List<ConfigKey> all() {
        return List.copyOf(KEYS.values());
    }

    /** Looks a key up case-insensitively (PgBouncer lower-cases key names). */
    public static Optional<ConfigKey> find(String name) {
        return Optional.ofNullable(KEYS.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The key with this exact lower-case name; for code that names keys as constants. */
    public static ConfigKey get(String name) {
        ConfigKey k = KEYS.get(name);
        if (k == null) {
            throw new IllegalArgumentException("no such key: " + name);
        }
        return k;
    }

    private static ConfigKey pg(String name, KeyType type, String def, boolean changeable, boolean supported) {
        return new ConfigKey(name, type, def, changeable, supported, List.of(), Origin.PGBOUNCER);
    }

    private static ConfigKey en(String name, String def, boolean changeable, boolean supported, List<String> values) {
        return new ConfigKey(name, KeyType.ENUM, def, changeable, supported, values, Origin.PGBOUNCER);
    }

    private static ConfigKey sluice(String name, KeyType type, String def) {
        return new ConfigKey(name, type, def, true, true, List.of(), Origin.SLUICE);
    }
}
