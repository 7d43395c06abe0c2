package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.FreePorts;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PrometheusProcess;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Acceptance 2: Debian's prometheus-pgbouncer-exporter pointed at Sluice's console behaves as
 * when pointed at PgBouncer, and Sluice's own endpoint emits every name that exporter produces,
 * the prometheus-community exporter's names, and Sluice's pool-pressure families.
 */
class PrometheusIT {
    static final Path EXPORTER = Path.of("/usr/bin/prometheus-pgbouncer-exporter");
    /** Names the prometheus-community exporter emits for PgBouncer 1.25 once a pool has traffic. */
    static final Set<String> COMMUNITY = Set.of("pgbouncer_up", "pgbouncer_version_info",
            "pgbouncer_config_max_client_connections", "pgbouncer_config_max_user_connections",
            "pgbouncer_databases_pool_size", "pgbouncer_databases_min_pool_size", "pgbouncer_databases_reserve_pool",
            "pgbouncer_databases_max_connections", "pgbouncer_databases_current_connections",
            "pgbouncer_databases_paused", "pgbouncer_databases_disabled",
            "pgbouncer_stats_queries_pooled_total", "pgbouncer_stats_queries_duration_seconds_total",
            "pgbouncer_stats_received_bytes_total", "pgbouncer_stats_sent_bytes_total",
            "pgbouncer_stats_client_wait_seconds_total", "pgbouncer_stats_sql_transactions_pooled_total",
            "pgbouncer_stats_server_in_transaction_seconds_total", "pgbouncer_stats_client_parses_total",
            "pgbouncer_stats_server_parses_total", "pgbouncer_stats_binds_total",
            "pgbouncer_pools_client_active_connections", "pgbouncer_pools_client_active_cancel_connections",
            "pgbouncer_pools_client_waiting_connections", "pgbouncer_pools_client_waiting_cancel_connections",
            "pgbouncer_pools_server_active_connections", "pgbouncer_pools_server_active_cancel_connections",
            "pgbouncer_pools_server_being_canceled_connections", "pgbouncer_pools_server_idle_connections",
            "pgbouncer_pools_server_used_connections", "pgbouncer_pools_server_testing_connections",
            "pgbouncer_pools_server_login_connections", "pgbouncer_pools_client_maxwait_seconds",
            "pgbouncer_databases", "pgbouncer_users", "pgbouncer_pools", "pgbouncer_free_clients",
            "pgbouncer_used_clients", "pgbouncer_login_clients", "pgbouncer_free_servers", "pgbouncer_used_servers",
            "pgbouncer_cached_dns_names", "pgbouncer_cached_dns_zones", "pgbouncer_in_flight_dns_queries");

    static ConsolePair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = ConsolePair.start("promdb", "");
    }

    @AfterAll
    static void stop() throws Exception {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void debianExporterCollectorsSeeTheSameNamesOnSluiceAsOnPgBouncer() throws Exception {
        assumeTrue(Files.isExecutable(EXPORTER) && pair.pgbouncer() != null,
                "Debian's exporter and PgBouncer installed");
        Map<String, String[]> onPgb = collectors(pair.pgbouncer().port());
        Map<String, String[]> onSluice = collectors(pair.sluice().port);
        for (String c : new String[] {"pools", "lists"}) {
            assertThat(onPgb.get(c)[0]).as(c + " on PgBouncer").isEqualTo("names");
            assertThat(onSluice.get(c)).as(c).containsExactly(onPgb.get(c));
        }
        // Its STATS collector reads total_requests, gone since PgBouncer 1.8: fails alike on both.
        assertThat(onSluice.get("stats")).containsExactly(onPgb.get("stats"));
        assertThat(onSluice.get("stats")[1]).contains("total_requests");
        // Its DATABASES collector reads reserve_pool, which PgBouncer 1.24 renamed to reserve_pool_size:
        // 1.18 has it, the 1.25.2 layout Sluice presents does not (see docs/monitoring.md).
        assertThat(onPgb.get("databases")).containsExactly("names", "pgbouncer_pool_size,pgbouncer_reserve_pool");
        assertThat(onSluice.get("databases")).containsExactly("error", "KeyError: 'reserve_pool'");

        Set<String> endpoint = endpointNames();
        for (String[] r : onPgb.values()) {
            if (r[0].equals("names")) {
                assertThat(endpoint).containsAll(Arrays.asList(r[1].split(",")));
            }
        }
    }

    @Test
    void debianExporterProcessFailsOnSluiceExactlyAsOnPgBouncer() {
        assumeTrue(Files.isExecutable(EXPORTER) && pair.pgbouncer() != null,
                "Debian's exporter and PgBouncer installed");
        ProcessResult a = exporter(pair.pgbouncer().port());
        ProcessResult b = exporter(pair.sluice().port);
        assertThat(a.exitCode()).as(a.describe()).isNotZero();
        assertThat(b.exitCode()).as(b.describe()).isEqualTo(a.exitCode());
        assertThat(a.stderr()).contains("KeyError: 'total_requests'");
        assertThat(b.stderr()).contains("KeyError: 'total_requests'");
    }

    @Test
    void endpointEmitsCommunityExporterAndSluiceFamilies() throws Exception {
        Set<String> names = endpointNames();
        assertThat(names).containsAll(COMMUNITY).contains("sluice_pool_scaling_total", "sluice_pool_scaling");
    }

    @Test
    void endpointValuesAgreeWithTheConsole() throws Exception {
        String text = scrape();
        assertThat(sample(text, "pgbouncer_databases_pool_size", "name=\"" + pair.db() + "\"")).isEqualTo(7.0);
        long queries = PauseResumeIT.stat(pair.sluice(), "show stats_totals", pair.db(), "query_count");
        assertThat(queries).isPositive();
        assertThat(sample(text, "pgbouncer_stats_queries_pooled_total", "database=\"" + pair.db() + "\""))
                .isEqualTo((double) queries);
        assertThat(sample(text, "pgbouncer_config_max_client_connections", null)).isEqualTo(100.0);
        assertThat(text).containsPattern("pgbouncer_version_info\\{version=\"PgBouncer 1\\.25\\.2 \\(Sluice [^)]+\\)\"} 1");
        assertThat(sample(text, "pgbouncer_up", null)).isEqualTo(1.0);
        assertThat(sample(text, "sluice_pool_scaling_total", "type=\"creates_started\"")).isPositive();
    }

    /**
     * Issue 18, acceptance 3: Debian's Prometheus scrapes the endpoint (target up, no scrape
     * error), promtool finds nothing to complain about, and PromQL over the prometheus-community
     * exporter's names answers as a dashboard built on that exporter expects.
     */
    @Test
    void aRealPrometheusScrapesTheEndpointAndAnswersExporterQueries() throws Exception {
        assumeTrue(PrometheusProcess.available(), "Debian's prometheus installed");
        ProcessResult lint = PrometheusProcess.checkMetrics(scrape());
        assertThat(lint.exitCode()).as(lint.describe()).isZero();
        assertThat(lint.stdout() + lint.stderr()).as(lint.describe()).isBlank();
        try (PrometheusProcess prom = PrometheusProcess.start("sluice", pair.sluice().server.metricsPort())) {
            Await.poll(Duration.ofSeconds(30), () -> prom.targets().contains("\"health\":\"up\""));
            assertThat(prom.targets()).contains("\"health\":\"up\"", "\"lastError\":\"\"")
                    .doesNotContain("\"health\":\"down\"");
            String pool = "{database=\"" + pair.db() + "\",user=\"postgres\"}";
            for (String[] q : new String[][] {
                    {"up{job=\"sluice\"}", "1"},
                    {"pgbouncer_up", "1"},
                    {"pgbouncer_databases_pool_size{name=\"" + pair.db() + "\"}", "7"},
                    {"pgbouncer_databases_reserve_pool{name=\"" + pair.db() + "\"}", "0"},
                    {"pgbouncer_pools_client_waiting_connections" + pool, "0"},
                    {"pgbouncer_config_max_client_connections", "100"},
                    {"count(pgbouncer_version_info)", "1"},
                    {"sum(pgbouncer_stats_queries_pooled_total{database=\"" + pair.db() + "\"}) > bool 0", "1"},
                    {"max by (database, user) (pgbouncer_pools_client_maxwait_seconds" + pool + ") > bool 5", "0"},
                    {"count(rate(pgbouncer_stats_sql_transactions_pooled_total[1m]) >= 0) > bool 0", "1"}}) {
                Await.poll(Duration.ofSeconds(20), () -> prom.query(q[0]).contains("\"" + q[1] + "\"]"));
                assertThat(prom.query(q[0])).as(q[0]).contains("\"" + q[1] + "\"]");
            }
            assertThat(prom.query("scrape_samples_scraped{job=\"sluice\"}")).contains("\"success\"");
        }
    }

    @Test
    void aListeningClientIsCountedAsPinnedUntilItUnlistens() throws Exception {
        String series = "sluice_pool_pinned_clients";
        String pool = "database=\"" + pair.db() + "\",user=\"postgres\"";
        try (java.sql.Connection c = io.sluice.testkit.Jdbc.connect("127.0.0.1", pair.sluice().port, pair.db(),
                "postgres", null,
                new java.util.Properties()); java.sql.Statement st = c.createStatement()) {
            st.execute("LISTEN prom_pinned");
            Await.until(Duration.ofSeconds(10), () -> pinned(series, pool) == 1.0, "one pinned client");
            st.execute("UNLISTEN *");
            Await.until(Duration.ofSeconds(10), () -> pinned(series, pool) == 0.0, "no pinned client");
        }
    }

    private static double pinned(String series, String pool) {
        try {
            return sample(scrape(), series, pool);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void otherPathsAre404() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + pair.sluice().server.metricsPort() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(404);
    }

    static double sample(String text, String name, String labelPart) {
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                if (labelPart == null || line.contains(labelPart)) {
                    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        throw new AssertionError("no " + name + " " + labelPart + " in\n" + text);
    }

    static String scrape() throws Exception {
        return scrape(pair.sluice().server.metricsPort());
    }

    /** GET /metrics of the endpoint on {@code port}: the exposition text. */
    static String scrape(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
        return r.body();
    }

    static Set<String> endpointNames() throws Exception {
        Set<String> names = new TreeSet<>();
        for (String line : scrape().split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                names.add(line.split("[{ ]")[0]);
            }
        }
        return names;
    }

    /** collector name -> {"names", "a,b"} or {"error", text}. */
    static Map<String, String[]> collectors(int port) throws Exception {
        Path script = Files.createTempFile("debian_collectors", ".py");
        try (var in = PrometheusIT.class.getResourceAsStream("/exporter/debian_collectors.py")) {
            Files.write(script, in.readAllBytes());
        }
        ProcessResult r = ProcessRunner.of("/usr/bin/python3", script.toString(), String.valueOf(port), "watcher")
                .timeout(Duration.ofSeconds(30)).run();
        Files.deleteIfExists(script);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        Map<String, String[]> out = new HashMap<>();
        for (String line : r.stdout().split("\n")) {
            String[] p = line.split("\t", 3);
            out.put(p[0], new String[] {p[1], p[2]});
        }
        return out;
    }

    static ProcessResult exporter(int port) {
        return ProcessRunner.of(EXPORTER.toString(), "--host", "127.0.0.1", "--port", String.valueOf(FreePorts.next()),
                "--pgbouncer-host", "127.0.0.1", "--pgbouncer-port", String.valueOf(port), "--pgbouncer-user", "watcher")
                .timeout(Duration.ofSeconds(30)).run();
    }
}
