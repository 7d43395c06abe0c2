package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PgBouncer's client timeouts against real clients: idle_transaction_timeout and query_timeout
 * side by side with Debian's PgBouncer 1.18 (a query that runs longer than idle_transaction_timeout
 * inside a transaction is not idle time; query_timeout also ends a transaction left idle); transaction_timeout, query_wait_notify and server_fast_close on Sluice only, because
 * they are PgBouncer 1.25 settings that 1.18 lacks (the expected behaviour is 1.25's source).
 */
class ClientTimeoutsIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    private static String ini(String settings) {
        return "[databases]\nt = host=127.0.0.1 port=" + PgCluster.shared().port() + " dbname=postgres\n"
                + "[pgbouncer]\nauth_type = trust\nadmin_users = postgres\nlog_stats = 0\n"
                + "ignore_startup_parameters = extra_float_digits\n" + settings;
    }

    @Test
    void idleTransactionTimeoutCountsOnlyTheTimeATransactionWaitsForItsClient() throws Exception {
        String ini = ini("pool_mode = transaction\nidle_transaction_timeout = 2\n");
        Pooler.sameAnswers("idle_transaction_timeout", ini, USERS, p -> {
            try (Connection c = p.connect("t")) {
                c.setAutoCommit(false);
                List<String> out = new ArrayList<>();
                out.add("begin: " + Queries.run(c, "select 1"));
                out.add("a 3 s query in the transaction: " + Queries.run(c, "select 'done' from pg_sleep(3)"));
                Await.until(Duration.ofSeconds(15), () -> p.log().contains("closing because: idle transaction timeout"),
                        p + " closing the idle transaction");
                out.add("after idling 2 s: " + closedWith(Queries.run(c, "select 2"), "idle transaction timeout"));
                out.add("server closed first, same reason: " + p.loggedServerClose("idle transaction timeout"));
                return out;
            }
        }, "begin: 1", "a 3 s query in the transaction: done", "after idling 2 s: idle transaction timeout",
                "server closed first, same reason: true");
    }

    /**
     * A login whose pool has no server yet, to a PostgreSQL that refuses connections: once
     * client_login_timeout runs out, PgBouncer's janitor ends it as "(server down)", the words
     * monitoring matches on; Sluice said "client_login_timeout" alone.
     */
    @Test
    void aLoginWaitingForAServerThatCannotConnectEndsAsServerDown() throws Exception {
        String ini = "[databases]\ndown = host=127.0.0.1 port=1 dbname=postgres\n"
                + "[pgbouncer]\nauth_type = trust\nlog_stats = 0\nclient_login_timeout = 2\n";
        Pooler.sameAnswers("client_login_timeout, server down", ini, USERS, p -> {
            try (Connection ignored = p.connect("down")) {
                return List.of("served");
            } catch (java.sql.SQLException e) {
                Await.until(Duration.ofSeconds(10), () -> p.log().contains("pooler error: client_login_timeout"),
                        p + " logs the pooler error");
                return List.of(e.getMessage().contains("client_login_timeout (server down)") ? "server down"
                        : e.getMessage(), "logged: " + p.log().contains("closing because: client_login_timeout (server down)"));
            }
        }, "server down", "logged: true");
    }

    /**
     * query_timeout counts from the client's last message while its server is not "ready", so a
     * client idle inside a transaction is ended by it too, before a longer
     * idle_transaction_timeout (PgBouncer's janitor checks query_timeout first).
     */
    @Test
    void queryTimeoutEndsAClientIdleInsideATransaction() throws Exception {
        String ini = ini("pool_mode = session\nquery_timeout = 2\nidle_transaction_timeout = 4\n");
        Pooler.sameAnswers("query_timeout, idle in a transaction", ini, USERS, p -> {
            try (Connection c = p.connect("t")) {
                List<String> out = new ArrayList<>();
                out.add("outside a transaction: " + Queries.run(c, "select 1"));
                c.setAutoCommit(false);
                out.add("in a transaction: " + Queries.run(c, "select 2"));
                Await.until(Duration.ofSeconds(15), () -> p.log().contains("closing because: query timeout"),
                        p + " closing the transaction left idle");
                out.add("after idling 2 s: " + closedWith(Queries.run(c, "select 3"), "query timeout"));
                out.add("idle transaction timeout logged: " + p.log().contains("idle transaction timeout"));
                out.add("server closed first, same reason: " + p.loggedServerClose("query timeout"));
                return out;
            }
        }, "outside a transaction: 1", "in a transaction: 2", "after idling 2 s: query timeout",
                "idle transaction timeout logged: false", "server closed first, same reason: true");
    }

    /** {@code reason} when the answer carries it, else "connection closed" for another error, else the answer. */
    private static String closedWith(String answer, String reason) {
        return answer.contains(reason) ? reason : answer.startsWith("ERROR") ? "connection closed" : answer;
    }

    /** PgBouncer 1.25 only: 1.18 has no transaction_timeout. */
    @Test
    void transactionTimeoutEndsATransactionThatRunsLongerAndItsServer() throws Exception {
        try (Pooler p = Pooler.sluice(ini("pool_mode = transaction\ntransaction_timeout = 2\n"), USERS);
             Connection c = p.connect("t")) {
            assertThat(Queries.run(c, "select 'short'")).isEqualTo("short");
            c.setAutoCommit(false);
            String pid = Queries.run(c, "select pg_backend_pid()");
            String answer = Queries.run(c, "select 'done' from pg_sleep(5)");
            assertThat(answer).contains("transaction timeout");
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("closing because: transaction timeout"),
                    "the reason in the log");
            Await.until(Duration.ofSeconds(10), () -> PgCluster.shared()
                    .query("select count(*) from pg_stat_activity where pid = " + pid).get(0).get(0).equals("0"),
                    "the transaction's server closed");
        }
    }

    /**
     * PgBouncer 1.25 only: a client queued longer than query_wait_notify gets one NOTICE with
     * PgBouncer's words, once a whole second more than the setting has passed, then its answer.
     */
    @Test
    void aClientQueuedLongerThanQueryWaitNotifyIsToldOnceAndThenServed() throws Exception {
        String ini = ini("pool_mode = transaction\ndefault_pool_size = 1\nquery_wait_notify = 1\n");
        try (Pooler p = Pooler.sluice(ini, USERS); Connection holder = p.connect("t");
             RawClient queued = new RawClient(p.port())) {
            holder.setAutoCommit(false);
            assertThat(Queries.run(holder, "select 1")).isEqualTo("1");
            queued.send(RawClient.startup(Map.of("user", "postgres", "database", "t")));
            assertThat(queued.readUntilReadyOrError()).isNull();
            long sent = System.nanoTime();
            queued.send(RawClient.query("select 'served'"));
            RawClient.Message notice = queued.readMessage();
            long waitedMillis = (System.nanoTime() - sent) / 1_000_000;
            assertThat(notice.type()).isEqualTo('N');
            Map<Character, String> fields = RawClient.fields(notice.body());
            assertThat(fields).containsEntry('S', "NOTICE").containsEntry('C', "00000")
                    .containsEntry('M', "No server connection available in postgres backend, client being queued");
            assertThat(waitedMillis).as("not before query_wait_notify + 1 s").isGreaterThanOrEqualTo(1900);
            holder.commit();
            RawClient.Message next = queued.readMessage();
            assertThat(next.type()).as("the answer follows, no second notice").isEqualTo('T');
        }
    }

    /**
     * PgBouncer 1.25 only (its test_fast_close): with server_fast_close an idle session server
     * marked close_needed by RECONNECT is closed with its client ("database configuration
     * changed"); a client in a transaction keeps its server until the transaction ends.
     */
    @Test
    void serverFastCloseClosesSessionServersMarkedByReconnectOnceTheyAreIdle() throws Exception {
        String ini = ini("pool_mode = session\nserver_fast_close = 1\n");
        try (Pooler p = Pooler.sluice(ini, USERS); Connection idle = p.connect("t");
             Connection inTransaction = p.connect("t")) {
            assertThat(Queries.run(idle, "select 1")).isEqualTo("1");
            inTransaction.setAutoCommit(false);
            assertThat(Queries.run(inTransaction, "select 1")).isEqualTo("1");
            ProcessResult r = ProcessRunner.psql("127.0.0.1", p.port(), "pgbouncer", "postgres", null, "RECONNECT t");
            assertThat(r.exitCode()).as(r.describe()).isZero();
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("closing because: database configuration changed"),
                    "the idle session closed");
            assertThat(Queries.run(idle, "select 2")).contains("database configuration changed");
            assertThat(Queries.run(inTransaction, "select 2")).as("the transaction carries on").isEqualTo("2");
            CompletableFuture<String> commit = CompletableFuture.supplyAsync(() -> {
                try {
                    inTransaction.commit();
                    return Queries.run(inTransaction, "select 3");
                } catch (java.sql.SQLException e) {
                    return "ERROR: " + e.getMessage();
                }
            });
            assertThat(Queries.await(commit, 15)).as("closed once its transaction ended")
                    .contains("database configuration changed");
        }
    }
}
