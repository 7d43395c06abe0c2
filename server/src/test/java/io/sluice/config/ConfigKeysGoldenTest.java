package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The key table against PgBouncer 1.25.2's SHOW CONFIG (copied into test resources). */
class ConfigKeysGoldenTest {

    /** Keys Sluice acts on, as agreed for this layer; everything else of PgBouncer's is ignored with a warning. */
    private static final Set<String> SUPPORTED = Set.of(
            "logfile", "pidfile", "listen_addr", "listen_port", "unix_socket_dir", "unix_socket_mode",
            "unix_socket_group", "pool_mode", "max_client_conn", "default_pool_size", "min_pool_size",
            "reserve_pool_size", "reserve_pool_timeout", "max_db_connections",
            "max_db_client_connections", "max_user_connections", "max_user_client_connections",
            "server_round_robin", "ignore_startup_parameters", "conffile", "stats_period", "auth_type",
            "auth_file", "auth_hba_file", "log_connections", "log_disconnections", "log_pooler_errors",
            "auth_ident_file", "auth_user", "auth_query", "auth_dbname",
            "log_stats", "verbose", "admin_users", "stats_users", "server_reset_query",
            "server_reset_query_always", "server_check_delay", "server_check_query", "server_lifetime",
            "server_idle_timeout", "server_connect_timeout", "server_login_retry",
            "client_login_timeout", "query_timeout", "query_wait_timeout", "client_idle_timeout",
            "idle_transaction_timeout", "max_packet_size", "listen_backlog", "tcp_keepalive",
            "disable_pqexec", "application_name_add_host", "client_tls_sslmode", "server_tls_sslmode",
            "user", "syslog", "job_name", "pkt_buf", "sbuf_loopcnt", "tcp_defer_accept",
            "tcp_socket_buffer", "tcp_keepcnt", "tcp_keepidle", "tcp_keepintvl", "tcp_user_timeout",
            "dns_max_ttl", "dns_nxdomain_ttl", "suspend_timeout", "cancel_wait_timeout",
            "max_prepared_statements", "track_extra_parameters", "scram_iterations", "syslog_ident",
            "syslog_facility", "query_wait_notify", "autodb_idle_timeout", "server_fast_close",
            "transaction_timeout",
            // TLS (issue 13)
            "client_tls13_ciphers", "client_tls_ca_file", "client_tls_cert_file", "client_tls_ciphers",
            "client_tls_dheparams", "client_tls_ecdhcurve", "client_tls_key_file", "client_tls_protocols",
            "server_tls13_ciphers", "server_tls_ca_file", "server_tls_cert_file", "server_tls_ciphers",
            "server_tls_key_file", "server_tls_protocols",
            // several processes on one port (issue 17)
            "so_reuseport", "peer_id");

    static Map<String, String[]> golden() throws IOException {
        try (InputStream in = ConfigKeysGoldenTest.class.getResourceAsStream("/config/show-config-1.25.2.tsv")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String[]> rows = new LinkedHashMap<>();
            List<String> lines = text.lines().skip(1).toList(); // header: key default changeable
            for (String l : lines) {
                String[] f = l.split("\t", -1);
                rows.put(f[0], new String[] {f[1], f[2]});
            }
            return rows;
        }
    }

    @Test
    void pgbouncerKeysMatchShowConfigExactly() throws IOException {
        Map<String, String[]> golden = golden();
        List<ConfigKey> ours = ConfigKeys.all().stream()
                .filter(k -> k.origin() == ConfigKey.Origin.PGBOUNCER).toList();

        assertThat(golden).hasSize(98);
        assertThat(ours.stream().map(ConfigKey::name)).containsExactlyElementsOf(golden.keySet());
        for (ConfigKey k : ours) {
            String[] g = golden.get(k.name());
            assertThat(k.defaultValue()).as("default of %s", k.name()).isEqualTo(g[0]);
            assertThat(k.changeable() ? "yes" : "no").as("changeable of %s", k.name()).isEqualTo(g[1]);
        }
    }

    @Test
    void defaultShowConfigRowsMatchGoldenDefaults() throws IOException {
        Map<String, String[]> golden = golden();
        ConfigSnapshot snap = TestConfigs.minimal();
        List<ShowConfigRow> rows = snap.showConfigRows(false);
        assertThat(rows).hasSize(98);
        for (ShowConfigRow r : rows) {
            assertThat(r.defaultValue()).isEqualTo(golden.get(r.key())[0]);
            assertThat(r.changeable()).isEqualTo(golden.get(r.key())[1]);
        }
    }

    @Test
    void supportedFlagsAreExactlyTheAgreedSet() {
        Set<String> supported = ConfigKeys.all().stream()
                .filter(k -> k.origin() == ConfigKey.Origin.PGBOUNCER && k.supported())
                .map(ConfigKey::name).collect(Collectors.toSet());
        assertThat(supported).containsExactlyInAnyOrderElementsOf(SUPPORTED);
    }

    @Test
    void sluicePressureKeys() {
        Map<String, String> expected = Map.of(
                "scaling_warm_pool_ratio", "20", "scaling_fast_retries", "10",
                "scaling_max_parallel_creates", "2", "retain_connections_time", "30",
                "min_connection_lifetime", "30", "min_guaranteed_pool_size", "0",
                "db_reserve_pool_size", "0", "db_reserve_pool_timeout", "0");
        List<ConfigKey> sluice = ConfigKeys.all().stream()
                .filter(k -> k.origin() == ConfigKey.Origin.SLUICE && !k.name().startsWith("prometheus_")
                        && !k.name().startsWith("health_")
                        && !k.name().equals("max_pinned_servers")).toList();
        assertThat(sluice).hasSize(8).allSatisfy(k -> {
            assertThat(k.defaultValue()).isEqualTo(expected.get(k.name()));
            assertThat(k.changeable()).isTrue();
            assertThat(k.supported()).isTrue();
        });
        assertThat(ConfigKeys.get("retain_connections_time").type()).isEqualTo(KeyType.TIME);
        assertThat(ConfigKeys.get("min_connection_lifetime").type()).isEqualTo(KeyType.TIME);
    }

    @Test
    void prometheusEndpointKeysAreOffByDefaultAndFixedUntilRestart() {
        assertThat(ConfigKeys.get("prometheus_listen_port").defaultValue()).isEqualTo("0");
        assertThat(ConfigKeys.get("prometheus_listen_addr").defaultValue()).isEqualTo("127.0.0.1");
        assertThat(ConfigKeys.get("prometheus_listen_port").changeable()).isFalse();
        assertThat(ConfigKeys.get("prometheus_listen_port").origin()).isEqualTo(ConfigKey.Origin.SLUICE);
    }

    @Test
    void pinnedServerCapIsSluicesOwnReloadableAndOffByDefault() {
        ConfigKey k = ConfigKeys.get("max_pinned_servers");
        assertThat(k.origin()).isEqualTo(ConfigKey.Origin.SLUICE);
        assertThat(k.defaultValue()).isEqualTo("0");
        assertThat(k.type()).isEqualTo(KeyType.INT);
        assertThat(k.changeable()).isTrue();
    }

    @Test
    void lookupIsCaseInsensitive() {
        assertThat(ConfigKeys.find("Listen_Port")).map(ConfigKey::name).contains("listen_port");
        assertThat(ConfigKeys.find("no_such_key")).isEmpty();
    }
}
