package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What clients see while PostgreSQL is away, on Sluice and on Debian's PgBouncer 1.18 run from
 * the same ini one after the other: a client queued for a server keeps waiting through refused
 * connects, connect timeouts and "the database system is starting up", the pooler retries after
 * server_login_retry, and the client is served once PostgreSQL is back; a request that finds the
 * pool without servers meanwhile is refused at once ("server login has been failing"); and a
 * client waits no longer than query_wait_timeout.
 */
class ServerRestartIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    private static String ini(int postgresPort, String extra) {
        return "[databases]\nr = host=127.0.0.1 port=" + postgresPort + " dbname=postgres\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = 2\n"
                + "server_login_retry = 2\nlog_stats = 0\nignore_startup_parameters = extra_float_digits\n" + extra;
    }

    /** Runs {@code scenario} on a fresh Sluice, then on a fresh PgBouncer when installed. */
    private static Map<String, List<String>> onEach(String ini, Scenario scenario) throws Exception {
        Map<String, List<String>> seen = new LinkedHashMap<>();
        List<Function<String, Pooler>> starts = new ArrayList<>();
        starts.add(text -> Pooler.sluice(text, USERS));
        if (PgBouncerProcess.available()) {
            starts.add(text -> Pooler.pgbouncer(text, USERS));
        }
        for (Function<String, Pooler> start : starts) {
            try (Pooler p = start.apply(ini)) {
                seen.put(p.name, scenario.run(p));
            }
        }
        return seen;
    }

    @FunctionalInterface
    private interface Scenario {
        List<String> run(Pooler p) throws Exception;
    }

    private static void assertSame(String what, Map<String, List<String>> seen, List<String> expected) {
        System.out.println(what + ": " + seen);
        assertThat(seen.get("sluice")).as(what).containsExactlyElementsOf(expected);
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as(what + ": Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    /** A new client's first query while the pool has no server and logins fail. */
    private static String newClient(Pooler p) {
        String r;
        try (Connection c = p.connect("r")) {
            r = Queries.run(c, "select 1");
        } catch (SQLException e) {
            r = "ERROR: " + e.getMessage();
        }
        // 1.18 goes on "try again later", 1.25 and Sluice with "cached error: <why>", in PgBouncer's
        // words for a refused connect (applications match this text), never the socket's own error
        if (r.contains("cached error")) {
            assertThat(r).endsWith("server login has been failing, cached error: connect failed (server_login_retry)");
        }
        return r.contains("server login has been failing") ? "refused: server login has been failing" : r;
    }

    @Test
    void aQueuedClientWaitsThroughAPostgresRestartAndIsServedAfterIt() throws Exception {
        try (PgCluster pg = PgCluster.builder().start()) {
            Map<String, List<String>> seen = onEach(ini(pg.port(), "query_wait_timeout = 60\n"), p -> {
                List<String> out = new ArrayList<>();
                try (Connection a = p.connect("r")) {
                    assertThat(Queries.run(a, "select 1")).isEqualTo("1");
                    pg.stopKeepingData();
                    CompletableFuture<String> waiting = Queries.start(a, "select 'served'");
                    Await.until(Duration.ofSeconds(20), () -> p.log().contains("connect failed"),
                            p + " failing to connect");
                    out.add("queued client still waiting: " + !waiting.isDone());
                    out.add("new client meanwhile: " + newClient(p));
                    pg.startAgain();
                    out.add("queued client after the restart: " + Queries.await(waiting, 30));
                    out.add("new client after: " + newClient(p));
                }
                return out;
            });
            assertSame("PostgreSQL restart", seen, List.of("queued client still waiting: true",
                    "new client meanwhile: refused: server login has been failing",
                    "queued client after the restart: served", "new client after: 1"));
        }
    }

    /**
     * The faults one at a time through a {@link PostgresGate}: the queued client is served once
     * the gate opens again, whatever the fault was.
     */
    @ParameterizedTest
    @EnumSource(value = PostgresGate.Mode.class, names = {"REFUSE", "STARTING_UP", "SILENT"})
    void aQueuedClientOutlastsEachFaultAndIsServedWhenPostgresAnswersAgain(PostgresGate.Mode fault) throws Exception {
        try (PostgresGate gate = new PostgresGate(PgCluster.shared().port())) {
            String ini = ini(gate.port, "query_wait_timeout = 60\nserver_connect_timeout = 1\n");
            Map<String, List<String>> seen = onEach(ini, p -> {
                List<String> out = new ArrayList<>();
                gate.mode(PostgresGate.Mode.OPEN);
                try (Connection a = p.connect("r")) {
                    assertThat(Queries.run(a, "select 1")).isEqualTo("1");
                    gate.mode(fault);
                    gate.cut();
                    CompletableFuture<String> waiting = Queries.start(a, "select 'served'");
                    Await.until(Duration.ofSeconds(20), () -> failedOnce(p, gate, fault), p + " meeting " + fault);
                    out.add("queued client still waiting: " + !waiting.isDone());
                    gate.mode(PostgresGate.Mode.OPEN);
                    out.add("queued client once PostgreSQL answers: " + Queries.await(waiting, 30));
                }
                return out;
            });
            assertSame(fault.toString(), seen, List.of("queued client still waiting: true",
                    "queued client once PostgreSQL answers: served"));
        }
    }

    /** The pooler met the fault and gave that connect up (PgBouncer and Sluice log these words). */
    private static boolean failedOnce(Pooler p, PostgresGate gate, PostgresGate.Mode fault) {
        return switch (fault) {
            case REFUSE -> p.log().contains("connect failed");
            case STARTING_UP -> gate.accepted(fault) >= 1 && p.log().contains("the database system is starting up");
            case SILENT -> gate.accepted(fault) >= 1 && p.log().contains("connect timeout");
            default -> throw new IllegalArgumentException(fault.toString());
        };
    }

    @Test
    void aQueuedClientFailsOnlyAtQueryWaitTimeout() throws Exception {
        try (PostgresGate gate = new PostgresGate(PgCluster.shared().port())) {
            Map<String, List<String>> seen = onEach(ini(gate.port, "query_wait_timeout = 4\n"), p -> {
                List<String> out = new ArrayList<>();
                gate.mode(PostgresGate.Mode.OPEN);
                try (Connection a = p.connect("r")) {
                    assertThat(Queries.run(a, "select 1")).isEqualTo("1");
                    gate.mode(PostgresGate.Mode.REFUSE);
                    gate.cut();
                    CompletableFuture<String> waiting = Queries.start(a, "select 'served'");
                    Await.until(Duration.ofSeconds(20), () -> p.log().contains("connect failed"), p + " failing");
                    out.add("still waiting after the first failed connect: " + !waiting.isDone());
                    String end = Queries.await(waiting, 30);
                    out.add("answer: " + (end.contains("query_wait_timeout") ? "query_wait_timeout" : end));
                }
                return out;
            });
            assertSame("PostgreSQL away for good", seen, List.of("still waiting after the first failed connect: true",
                    "answer: query_wait_timeout"));
        }
    }
}
