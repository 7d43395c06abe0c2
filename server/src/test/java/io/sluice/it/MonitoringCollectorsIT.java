package io.sluice.it;

import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 18, acceptance 1 and 2: the collectors people run against PgBouncer, replayed with their
 * own command sequences and drivers (see {@link CollectorReplay}) and Debian's check_postgres,
 * against Sluice and Debian's PgBouncer 1.18 side by side, after the same workload (one psql
 * query). Both must parse to the same metric names, label sets and driver value types, and to
 * the same values except where a value depends on timing or on a documented difference.
 *
 * <p>Where 1.18's console layout differs from PgBouncer 1.25.2's, Sluice follows 1.25.2 (the
 * golden layout, {@code show-columns-1.25.2.tsv}); each such difference is named below as a
 * {@link Drift}, and the test checks that it really shows on the side it says.
 */
class MonitoringCollectorsIT {
    /** Values not compared (names, labels and types still are), with why. */
    private static final Pattern NOT_COMPARED = Pattern.compile(
            // durations and waits depend on timing; averages on when stats_period last ended
            "_time|wait_us|maxwait|_seconds_total|clients\\.wait|avg_|connect_time|request_time"
                    // psql's first query: PgBouncer also counts bytes of its own parameter sync
                    + "|sent"
                    // Sluice (JVM) has no slab free lists
                    + "|free_clients|free_servers"
                    // the console's own traffic: each test's collector connections, some on one pooler only
                    + "|(_count|_pooled_total|_per_second) \\{(db|database)[=:]pgbouncer}");
    private static final Path CHECK_POSTGRES = Path.of("/usr/bin/check_postgres");

    static ConsolePair pair;

    /**
     * A layout difference between PgBouncer 1.18 and 1.25.2: keys matching {@code only118}
     * appear only on PgBouncer, {@code only125} only on Sluice; {@code from}→{@code to} turns a
     * 1.18 key into its 1.25.2 form.
     */
    record Drift(String why, String only118, String only125, String from, String to) {
        static Drift removed(String why, String regex) {
            return new Drift(why, regex, null, null, null);
        }

        static Drift added(String why, String regex) {
            return new Drift(why, null, regex, null, null);
        }

        static Drift renamed(String why, String from, String to) {
            return new Drift(why, null, null, from, to);
        }
    }

    private static final Drift STATS_124 = Drift.added("SHOW STATS/STATS_TOTALS gained server_assignment_count"
            + " (1.23) and client/server parse and bind counts (1.24)", "server_assignment|parse|bind");
    private static final Drift RESERVE_POOL = Drift.removed("SHOW DATABASES.reserve_pool is reserve_pool_size"
            + " since 1.24", "reserve_pool\\b");
    private static final Drift DATABASES_124 = Drift.added("SHOW DATABASES gained server_lifetime (1.23),"
            + " load_balance_hosts, max_client_connections, current_client_connections and reserve_pool_size"
            + " (1.24)", "pgbouncer_databases (reserve_pool_size|server_lifetime|load_balance_hosts"
            + "|max_client_connections|current_client_connections)");
    private static final Drift POOLS_124 = Drift.added("SHOW POOLS gained load_balance_hosts (1.24)",
            "pgbouncer_pools load_balance_hosts");
    private static final Drift IDLE_CLIENT = Drift.renamed("a client with no server linked shows as idle"
            + " since 1.21 (1.18: active)", "(state[=:])active", "$1idle");

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(PgBouncerProcess.available(), "Debian's PgBouncer installed");
        // lib/pq sends extra_float_digits at login: the exporter's README asks for this line.
        // PgBouncer moves a server idle for server_check_delay to "used" (Sluice checks a server
        // when it takes it and never does): a long delay keeps sv_idle/sv_used comparable.
        pair = ConsolePair.start("mondb", "ignore_startup_parameters = extra_float_digits\nserver_check_delay = 3600");
    }

    @AfterAll
    static void stop() throws Exception {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void prometheusCommunityExporterWithLibPq() {
        var both = goOnBoth("exporter");
        var s = both[0];
        var p = both[1];
        // pgbouncer_version_info carries SHOW VERSION's whole text as its label
        assertThat(s.values()).containsKey("gauge pgbouncer_version_info {version=PgBouncer 1.25.2 (Sluice "
                + sluiceVersion(s) + ")}");
        assertThat(p.values()).containsKey("gauge pgbouncer_version_info {version=PgBouncer " + PgBouncerProcess.version()
                + "}");
        assertThat(s.value("gauge pgbouncer_up {}")).isEqualTo("1");
        assertThat(s.values()).containsKey("gauge pgbouncer_pools_client_active_connections {database=" + pair.db()
                + ",user=postgres}");
        assertSameParse("exporter", s, p, "pgbouncer_version_info",
                STATS_124, RESERVE_POOL, IDLE_CLIENT);
    }

    /**
     * Acceptance 5: a dashboard built on the exporter needs nothing else from Sluice's own
     * endpoint. Every series the exporter makes of Sluice's console (name, type, label names and
     * values) is also on the endpoint; the exporter's SHOW CLIENTS counts are the one family the
     * endpoint leaves out (docs/monitoring.md).
     */
    @Test
    void sluiceEndpointServesEverySeriesTheExporterMakesOfItsConsole() throws Exception {
        assumeTrue(CollectorReplay.goAvailable(), "Debian's golang-go, lib/pq and pgx v4 installed");
        var viaExporter = CollectorReplay.go("exporter", pair.sluice().port, "watcher");
        Map<String, String> endpoint = endpointSeries(PrometheusIT.scrape(pair.sluice().server.metricsPort()));
        List<String> missing = new ArrayList<>();
        for (String key : viaExporter.values().keySet()) {
            if (!key.contains("pgbouncer_clients {")) {
                String type = key.substring(0, key.indexOf(' '));
                String series = key.substring(key.indexOf(' ') + 1);
                if (!type.equals(endpoint.get(series))) {
                    String name = series.substring(0, series.indexOf(' '));
                    missing.add(key + " (endpoint: " + endpoint.get(series) + "; same name: "
                            + endpoint.keySet().stream().filter(k -> k.startsWith(name + " ")).toList() + ")");
                }
            }
        }
        assertThat(missing).as("exporter series absent from the endpoint").isEmpty();
        assertThat(endpoint).containsEntry("pgbouncer_databases_pool_size {database=" + pair.db()
                + ",force_user=,host=127.0.0.1,name=" + pair.db() + ",pool_mode=,port=" + pair.pg().port() + "}", "gauge");
    }

    /** "name {label=value,...}" (labels sorted, the Sluice port written $PORT) → its # TYPE. */
    private static Map<String, String> endpointSeries(String exposition) {
        Map<String, String> types = new TreeMap<>();
        Map<String, String> out = new TreeMap<>();
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+$");
        Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
        for (String line : exposition.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] f = line.split(" ");
                types.put(f[2], f[3]);
                continue;
            }
            var m = sample.matcher(line);
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            List<String> labels = new ArrayList<>();
            var l = label.matcher(m.group(2) == null ? "" : m.group(2));
            while (l.find()) {
                labels.add((l.group(1) + "=" + l.group(2)).replace("=" + pair.sluice().port, "=$PORT"));
            }
            labels.sort(null);
            String name = m.group(1);
            String type = types.getOrDefault(name, types.get(name.replaceFirst("_total$", "")));
            out.put(name + " {" + String.join(",", labels) + "}", type);
        }
        return out;
    }

    @Test
    void netdataWithPgxSimpleProtocol() {
        var both = goOnBoth("netdata");
        var s = both[0];
        var p = both[1];
        assertThat(s.value("version_supported {}")).isEqualTo("true");
        assertThat(s.value("max_client_conn {}")).isEqualTo("100");
        assertThat(s.value("db_current_connections {db=" + pair.db() + "}")).isEqualTo("1");
        assertSameParse("netdata", s, p, null);
    }

    @Test
    void telegrafWithPgxSimpleProtocol() {
        var both = goOnBoth("telegraf");
        var s = both[0];
        var p = both[1];
        // SHOW LISTS.items must reach Telegraf as an integer (int4), or its gather fails
        assertThat(s.type("pgbouncer_lists pools {}")).isEqualTo("int64");
        assertSameParse("telegraf", s, p, null, STATS_124, RESERVE_POOL, DATABASES_124, POOLS_124,
                Drift.added("SHOW LISTS gained peers and peer_pools (1.19)", "peer"));
    }

    @Test
    void pgmetricsPositionalScans() {
        var both = goOnBoth("pgmetrics");
        var s = both[0];
        var p = both[1];
        assertThat(s.value("rows {query=SHOW POOLS}")).isEqualTo("2");
        assertSameParse("pgmetrics", s, p, null, IDLE_CLIENT);
    }

    @Test
    void datadogWithPsycopg2() {
        var s = CollectorReplay.datadog(pair.sluice().port, "watcher");
        var p = CollectorReplay.datadog(pair.pgbouncer().port(), "watcher");
        assertThat(s.value("version {}")).isEqualTo("1.25.2");
        assertThat(p.value("version {}")).isEqualTo(PgBouncerProcess.version());
        assertThat(s.type("pgbouncer.stats.queries_per_second {db:" + pair.db() + "}")).isEqualTo("Decimal");
        assertSameParse("datadog", s, p, "version");
    }

    /** Acceptance 2: Debian's check_postgres gives the same Nagios status on both for the same thresholds. */
    @Test
    void checkPostgresPoolAndBackendActionsAgree() {
        assumeTrue(Files.isExecutable(CHECK_POSTGRES), "Debian's check-postgres installed");
        // After the workload: the console pool has the check's own client (cl_active 1), the
        // database pool one idle server (sv_idle 1); everything else is 0.
        // Each status shows at least once; check_postgres starts perl and psql per run (~1 s).
        String[][] cases = {
                {"pgb_pool_cl_active", "1", "2", "WARNING"}, {"pgb_pool_cl_active", "", "1", "CRITICAL"},
                {"pgb_pool_cl_waiting", "1", "2", "OK"}, {"pgb_pool_sv_idle", "1", "2", "WARNING"},
                {"pgb_pool_sv_idle", "2", "3", "OK"}, {"pgb_pool_sv_used", "1", "2", "OK"},
                {"pgbouncer_backends", "1", "2", "WARNING"}, {"pgbouncer_backends", "", "1", "CRITICAL"},
                {"pgbouncer_backends", "90%", "95%", "OK"}};
        List<String> differ = new ArrayList<>();
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("--action=" + c[0]));
            if (!c[1].isEmpty()) {
                args.add("--warning=" + c[1]);
            }
            args.add("--critical=" + c[2]);
            // both poolers at once: each run starts perl and psql, and the poolers do not interact
            var onPgBouncer = CompletableFuture.supplyAsync(() -> checkPostgres(pair.pgbouncer().port(), args));
            String s = checkPostgres(pair.sluice().port, args);
            String p = onPgBouncer.join();
            if (!status(s).equals(status(p)) || !status(s).equals(c[3])) {
                differ.add(args + " expected " + c[3] + "\n  sluice:    " + s + "\n  pgbouncer: " + p);
            }
        }
        assertThat(differ).isEmpty();
    }

    /**
     * pgbouncer_checksum reads SHOW CONFIG (it requires a log_pooler_errors row): the checksum it
     * prints is OK against itself, and turns CRITICAL on both once a setting changes at run time.
     * (The sums differ between the two: 1.25.2 has more settings than 1.18.)
     */
    @Test
    void checkPostgresChecksumNoticesASettingChangeOnBoth() {
        assumeTrue(Files.isExecutable(CHECK_POSTGRES), "Debian's check-postgres installed");
        for (int port : new int[] {pair.sluice().port, pair.pgbouncer().port()}) {
            String first = checkPostgres(port, List.of("--action=pgbouncer_checksum", "--critical=0"));
            assertThat(status(first)).as(first).isEqualTo("UNKNOWN");
            var m = Pattern.compile("checksum: ([0-9a-f]{32})").matcher(first);
            assertThat(m.find()).as(first).isTrue();
            String sum = m.group(1);
            assertThat(status(checkPostgres(port, List.of("--action=pgbouncer_checksum", "--critical=" + sum))))
                    .isEqualTo("OK");
            console(port, "SET server_idle_timeout = 601");
            try {
                String changed = checkPostgres(port, List.of("--action=pgbouncer_checksum", "--critical=" + sum));
                assertThat(status(changed)).as(changed).isEqualTo("CRITICAL");
            } finally {
                console(port, "SET server_idle_timeout = 600");
            }
        }
    }

    private static String checkPostgres(int port, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(CHECK_POSTGRES.toString(), "--host=127.0.0.1", "--port=" + port,
                "--dbuser=watcher"));
        cmd.addAll(args);
        ProcessResult r = ProcessRunner.of(cmd).timeout(Duration.ofSeconds(30)).run();
        return r.stdout().strip() + (r.stderr().isBlank() ? "" : " [stderr " + r.stderr().strip() + "]")
                + " [exit " + r.exitCode() + "]";
    }

    /** POSTGRES_<ACTION> <STATUS>: ..., with the exit code agreeing (Nagios: 0 1 2 3). */
    private static String status(String out) {
        var m = Pattern.compile("^POSTGRES_\\w+ (OK|WARNING|CRITICAL|UNKNOWN):.*\\[exit (\\d)]$", Pattern.DOTALL)
                .matcher(out);
        if (!m.find()) {
            return "UNPARSED " + out;
        }
        int code = List.of("OK", "WARNING", "CRITICAL", "UNKNOWN").indexOf(m.group(1));
        return code == Integer.parseInt(m.group(2)) ? m.group(1) : "EXIT MISMATCH " + out;
    }

    private static void console(int port, String sql) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", port, "pgbouncer", "postgres", null, sql);
        assertThat(r.exitCode()).as(r.describe()).isZero();
    }

    /** The Go replay of {@code mode} on Sluice, then on PgBouncer. */
    private static CollectorReplay.Result[] goOnBoth(String mode) {
        assumeTrue(CollectorReplay.goAvailable(), "Debian's golang-go, lib/pq and pgx v4 installed");
        return new CollectorReplay.Result[] {CollectorReplay.go(mode, pair.sluice().port, "watcher"),
                CollectorReplay.go(mode, pair.pgbouncer().port(), "watcher")};
    }

    private static String sluiceVersion(CollectorReplay.Result r) {
        var m = Pattern.compile("\\(Sluice ([^)]+)\\)").matcher(r.raw());
        assertThat(m.find()).as(r.raw()).isTrue();
        return m.group(1);
    }

    /**
     * Same errors (none), same keys after the drifts, same driver types, same values outside
     * {@link #NOT_COMPARED}. {@code ownKey} is compared separately by the caller (null: none).
     */
    private static void assertSameParse(String collector, CollectorReplay.Result onSluice,
                                        CollectorReplay.Result onPgBouncer, String ownKey, Drift... drifts) {
        String both = "\n--- sluice ---\n" + onSluice.raw() + "\n--- pgbouncer ---\n" + onPgBouncer.raw();
        assertThat(onSluice.errors()).as(collector + both).isEmpty();
        assertThat(onPgBouncer.errors()).as(collector + both).isEmpty();
        Map<String, String> s = new TreeMap<>(onSluice.values());
        Map<String, String> p = new TreeMap<>(onPgBouncer.values());
        if (ownKey != null) {
            s.keySet().removeIf(k -> k.contains(ownKey + " {"));
            p.keySet().removeIf(k -> k.contains(ownKey + " {"));
        }
        for (Drift d : drifts) {
            if (d.only118() != null) {
                assertThat(remove(p, d.only118())).as(collector + ": " + d.why() + both).isPositive();
                assertThat(remove(s, d.only118())).as(collector + ": " + d.why() + both).isZero();
            }
            if (d.only125() != null) {
                assertThat(remove(s, d.only125())).as(collector + ": " + d.why() + both).isPositive();
                assertThat(remove(p, d.only125())).as(collector + ": " + d.why() + both).isZero();
            }
            if (d.from() != null) {
                assertThat(rename(p, d.from(), d.to())).as(collector + ": " + d.why() + both).isPositive();
            }
        }
        assertThat(s.keySet()).as(collector + ": metric names and labels" + both).isEqualTo(p.keySet());
        List<String> differ = new ArrayList<>();
        for (String k : s.keySet()) {
            String[] a = s.get(k).split("\t", 2);
            String[] b = p.get(k).split("\t", 2);
            if (!a[0].equals(b[0]) || (!NOT_COMPARED.matcher(k).find() && !a[1].equals(b[1]))) {
                differ.add(k + ": sluice " + s.get(k) + ", pgbouncer " + p.get(k));
            }
        }
        assertThat(differ).as(collector + ": types and values" + both).isEmpty();
    }

    private static int remove(Map<String, String> m, String regex) {
        Pattern re = Pattern.compile(regex);
        int before = m.size();
        m.keySet().removeIf(k -> re.matcher(k).find());
        return before - m.size();
    }

    private static int rename(Map<String, String> m, String regex, String replacement) {
        Pattern re = Pattern.compile(regex);
        int n = 0;
        for (String k : new ArrayList<>(m.keySet())) {
            if (re.matcher(k).find()) {
                m.put(re.matcher(k).replaceAll(replacement), m.remove(k));
                n++;
            }
        }
        return n;
    }
}
