package io.sluice.compat.suite;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workload admin: the console's SHOW columns, its errors and the intended differences
 * (IntendedDifferences.SHOW_COLUMNS, SHOW_VERSION, EXTRA_SHOW).
 */
class AdminCompatIT {
    private static List<String> console(int port, String sql) throws Exception {
        try (WireClient c = CompatTargets.get().login(port, "pgbouncer").recordTypes()) {
            return c.simple(sql);
        }
    }

    private static List<String> columns(List<String> events) {
        return events.stream().filter(s -> s.startsWith("T ")).findFirst()
                .map(s -> Arrays.asList(s.substring(2).split(","))).orElse(List.of());
    }

    @ParameterizedTest(name = "SHOW {0}: PgBouncer 1.18's columns appear in Sluice's, in order")
    @ValueSource(strings = {"POOLS", "STATS", "STATS_TOTALS", "STATS_AVERAGES", "DATABASES", "CLIENTS", "SERVERS",
            "USERS", "LISTS", "CONFIG", "SOCKETS", "ACTIVE_SOCKETS", "DNS_HOSTS", "DNS_ZONES", "FDS", "MEM", "TOTALS"})
    void showColumns(String what) throws Exception {
        CompatTargets t = CompatTargets.get();
        List<String> pgb = console(t.pgbouncer.port(), "SHOW " + what);
        List<String> sl = console(t.sluice.port(), "SHOW " + what);
        assertThat(pgb).as("PgBouncer answers SHOW %s", what).noneMatch(s -> s.startsWith("E "));
        assertThat(sl).as("Sluice answers SHOW %s", what).noneMatch(s -> s.startsWith("E "));
        assertThat(columns(pgb)).as("PgBouncer's SHOW %s has columns", what).isNotEmpty();
        assertThat(columns(sl)).as("SHOW %s: %s", what, IntendedDifferences.SHOW_COLUMNS.why())
                .containsSubsequence(columns(pgb).stream()
                        .map(c -> IntendedDifferences.COLUMN_RENAMES.getOrDefault(c, c)).toList());
        assertThat(sl.get(sl.size() - 1)).isEqualTo("Z I");
        Map<String, String> slTypes = types(sl);
        Map<String, String> pgbTypes = types(pgb);
        assertThat(pgbTypes).as("PgBouncer's SHOW %s type OIDs", what).isNotEmpty();
        pgbTypes.forEach((column, oid) -> assertThat(slTypes.get(IntendedDifferences.COLUMN_RENAMES.getOrDefault(column, column)))
                .as("SHOW %s column %s: same type OID as PgBouncer", what, column).isEqualTo(oid));
    }

    /** Column name -> type OID from a row description. */
    private static Map<String, String> types(List<String> events) {
        List<String> names = columns(events);
        List<String> oids = events.stream().filter(s -> s.startsWith("TYPES ")).findFirst()
                .map(s -> Arrays.asList(s.substring(6).split(","))).orElse(List.of());
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            out.put(names.get(i), oids.get(i));
        }
        return out;
    }

    @Test
    void showConfigKeysOf118AllPresent() throws Exception {
        CompatTargets t = CompatTargets.get();
        List<String> pgbKeys = firstValues(console(t.pgbouncer.port(), "SHOW CONFIG"));
        List<String> slKeys = firstValues(console(t.sluice.port(), "SHOW CONFIG"));
        assertThat(pgbKeys).contains("pool_mode", "default_pool_size", "max_client_conn");
        assertThat(slKeys).containsAll(pgbKeys);
    }

    @Test
    void showDatabasesListsTheSameDatabases() throws Exception {
        CompatTargets t = CompatTargets.get();
        assertThat(firstValues(console(t.sluice.port(), "SHOW DATABASES")))
                .containsExactlyInAnyOrderElementsOf(firstValues(console(t.pgbouncer.port(), "SHOW DATABASES")))
                .contains("compat", "compat_session", "compat_small", "compat_stats", "pgbouncer");
    }

    /**
     * SHOW STATS averages are live, as PgBouncer computes them when asked: queries just run show
     * in avg_query_time and avg_xact_time at once, not only after a stats_period has ended. And
     * wait_time includes the first login's wait for the pool's first server.
     */
    @Test
    void statsAveragesIncludeQueriesJustRun() throws Exception {
        CompatTargets t = CompatTargets.get();
        for (int port : List.of(t.pgbouncer.port(), t.sluice.port())) {
            try (WireClient c = t.login(port, "compat_stats")) {
                for (int i = 0; i < 5; i++) {
                    assertThat(c.simple("SELECT pg_sleep(0.02)")).last().isEqualTo("Z I");
                }
            }
        }
        for (var target : t.ports().entrySet()) {
            List<String> shown = console(target.getValue(), "SHOW STATS");
            List<String> names = columns(shown);
            String[] row = shown.stream().filter(s -> s.startsWith("D compat_stats|")).findFirst()
                    .map(s -> s.substring(2).split("\\|", -1)).orElseThrow();
            for (String column : List.of("avg_query_time", "avg_xact_time")) {
                assertThat(Long.parseLong(row[names.indexOf(column)]))
                        .as("%s: SHOW STATS %s after five 20 ms queries", target.getKey(), column)
                        .isGreaterThanOrEqualTo(20_000);
            }
            // the first login waited for the pool's first server connection: PgBouncer counts
            // that wait (its CL_WAITING_LOGIN) in wait_time; a backend start takes over 1 ms
            assertThat(Long.parseLong(row[names.indexOf("total_wait_time")]))
                    .as("%s: SHOW STATS total_wait_time after the pool's first login", target.getKey())
                    .isGreaterThanOrEqualTo(1_000);
        }
    }

    private static List<String> firstValues(List<String> events) {
        List<String> out = new ArrayList<>();
        for (String s : events) {
            if (s.startsWith("D ")) {
                out.add(s.substring(2).split("\\|", -1)[0]);
            }
        }
        return out;
    }

    @Test
    void unknownShowIsAnError() throws Exception {
        List<String> seen = SideBySide.same("SHOW NONSENSE", p -> console(p, "SHOW NONSENSE"));
        assertThat(seen).hasSize(2).last().isEqualTo("Z I");
        assertThat(seen.get(0)).startsWith("E 08P01 ERROR");
    }

    @Test
    void nonAdminStatementOnConsoleIsAnError() throws Exception {
        List<String> seen = SideBySide.same("SELECT on console", p -> console(p, "SELECT 1"));
        assertThat(seen.get(0)).startsWith("E ");
        assertThat(seen).last().isEqualTo("Z I");
    }

    @Test
    void consoleParameterStatusAtLogin() throws Exception {
        List<String> seen = SideBySide.same("console ParameterStatus", p -> {
            try (WireClient c = CompatTargets.get().login(p, "pgbouncer")) {
                return new ArrayList<>(c.parameters.keySet());
            }
        });
        assertThat(seen).contains("client_encoding", "server_version");
    }

    @Test
    void showVersionShapeIsTheSameTextDiffers() throws Exception {
        CompatTargets t = CompatTargets.get();
        List<String> pgb = console(t.pgbouncer.port(), "SHOW VERSION");
        List<String> sl = console(t.sluice.port(), "SHOW VERSION");
        assertThat(columns(sl)).isEqualTo(columns(pgb)).containsExactly("version");
        assertThat(pgb).filteredOn(s -> s.startsWith("D ")).singleElement().asString().contains("PgBouncer");
        // IntendedDifferences.SHOW_VERSION: one row, its text names Sluice
        assertThat(sl).filteredOn(s -> s.startsWith("D ")).hasSize(1);
        assertThat(sl).endsWith("C SHOW", "Z I");
    }

    @Test
    void sluiceExtraShowIsAnIntendedDifference() throws Exception {
        CompatTargets t = CompatTargets.get();
        assertThat(console(t.pgbouncer.port(), "SHOW POOL_SCALING").get(0)).startsWith("E ");
        assertThat(console(t.sluice.port(), "SHOW POOL_SCALING")).noneMatch(s -> s.startsWith("E ")).endsWith("Z I");
        assertThat(IntendedDifferences.ALL).contains(IntendedDifferences.EXTRA_SHOW);
    }

    /**
     * tcp_defer_accept, on by default on Linux: a TCP connection that has sent nothing is still
     * the kernel's, so SHOW LISTS counts no client logging in; once it has sent a byte, the pooler
     * has accepted it and it is one. (The console's own login comes after it in the accept queue.)
     */
    @Test
    void aSilentConnectionIsNoLoginClientUntilItSends() throws Exception {
        List<String> seen = SideBySide.same("tcp_defer_accept", port -> {
            try (Socket silent = new Socket("127.0.0.1", port)) {
                String before = "login_clients while it is silent: " + loginClients(port);
                silent.getOutputStream().write(0);
                silent.getOutputStream().flush();
                return List.of(before, "login_clients once it has sent a byte: " + loginClients(port));
            }
        });
        assertThat(seen).containsExactly("login_clients while it is silent: 0",
                "login_clients once it has sent a byte: 1");
    }

    private static String loginClients(int port) throws Exception {
        return console(port, "SHOW LISTS").stream().filter(s -> s.startsWith("D login_clients|"))
                .map(s -> s.substring("D login_clients|".length())).findFirst().orElse("none");
    }
}
