package io.sluice.it;

import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transaction pooling with one server and two clients that asked for different session
 * parameters at startup: each transaction sees its own client's values (Sluice replays them
 * with SET when a client lands on a server that has the other's), as PgBouncer does.
 */
class ParameterSyncIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    @Test
    void eachClientKeepsItsStartupParametersOnASharedServer() throws Exception {
        PgCluster pg = PgCluster.shared();
        try (SluiceFixture s = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT pool_size=1",
                "auth_type = trust\npool_mode = transaction", "\"postgres\" \"\"\n");
             RawClient a = new RawClient(s.port);
             RawClient b = new RawClient(s.port)) {
            a.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres",
                    "application_name", "client-a", "DateStyle", "SQL, DMY", "TimeZone", "Asia/Tokyo")));
            assertThat(a.readUntilReadyOrError()).isNull();
            b.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres",
                    "application_name", "client-b", "DateStyle", "ISO, MDY", "TimeZone", "UTC")));
            assertThat(b.readUntilReadyOrError()).isNull();
            for (int round = 0; round < 3; round++) {
                String pidA = a.queryOne("select pg_backend_pid()");
                assertThat(a.queryOne("select current_setting('application_name')")).isEqualTo("client-a");
                assertThat(a.queryOne("show DateStyle")).isEqualTo("SQL, DMY");
                assertThat(a.queryOne("show TimeZone")).isEqualTo("Asia/Tokyo");
                assertThat(b.queryOne("select pg_backend_pid()")).as("pool_size=1: the same backend").isEqualTo(pidA);
                assertThat(b.queryOne("select current_setting('application_name')")).isEqualTo("client-b");
                assertThat(b.queryOne("show DateStyle")).isEqualTo("ISO, MDY");
                assertThat(b.queryOne("show TimeZone")).isEqualTo("UTC");
            }
            // a SET inside a client's transaction-mode session follows that client too
            a.queryOne("set application_name = 'client-a2'");
            assertThat(b.queryOne("select current_setting('application_name')")).isEqualTo("client-b");
            assertThat(a.queryOne("select current_setting('application_name')")).isEqualTo("client-a2");
        }
    }

    /**
     * A startup value PostgreSQL refuses (a TimeZone typed wrong) ends that client at its first
     * query with PgBouncer's "invalid server parameter", before the query runs on a server that
     * has another client's value; the pool's other clients go on. Sluice pipelines its SETs only
     * for values a server has already taken.
     */
    @Test
    void aStartupValueTheServerRefusesEndsThatClientBeforeItsQueryRuns() throws Exception {
        String db = database("badparam");
        PgCluster.shared().exec(db, "create table probe (a int)");
        Pooler.sameAnswers("refused startup parameter", poolOfOne(db, ""), USERS, p -> {
            List<String> seen = new ArrayList<>();
            try (RawClient good = new RawClient(p.port()); RawClient bad = new RawClient(p.port())) {
                seen.add("good login: " + login(good, db, "UTC"));
                seen.add("good: " + good.queryOne("show TimeZone"));
                seen.add("bad login: " + login(bad, db, "Nowhere/Land"));
                bad.send(RawClient.query("insert into probe values (1)"));
                seen.addAll(bad.describeUntilClosed(4));
                seen.add("rows: " + good.queryOne("select count(*) from probe"));
                seen.add("good: " + good.queryOne("show TimeZone"));
            }
            return seen;
        }, "good login: null", "good: UTC", "bad login: null", "E FATAL 08P01 invalid server parameter", "EOF",
                "rows: 0", "good: UTC");
    }

    /**
     * The SETs of an untried startup value go to a server that never answers (its backend
     * stopped): the client's query, held back for their answer, still ends at query_timeout in
     * PgBouncer's words instead of waiting for ever.
     */
    @Test
    void aClientWaitingForItsSetsAnswerEndsAtQueryTimeout() throws Exception {
        String db = database("hungset");
        Pooler.sameAnswers("SETs to a stopped server", poolOfOne(db, "query_timeout = 1\n"), USERS, p -> {
            List<String> seen = new ArrayList<>();
            try (RawClient first = new RawClient(p.port()); RawClient waiting = new RawClient(p.port())) {
                seen.add("first login: " + login(first, db, "UTC"));
                String backend = first.queryOne("select pg_backend_pid()");
                seen.add("second login: " + login(waiting, db, "Asia/Tokyo"));
                io.sluice.testkit.ProcessRunner.of("kill", "-STOP", backend).run().requireSuccess();
                try {
                    waiting.send(RawClient.query("select 1"));
                    seen.addAll(waiting.describeUntilClosed(3));
                } finally {
                    io.sluice.testkit.ProcessRunner.of("kill", "-CONT", backend).run().requireSuccess();
                }
            }
            return seen;
        }, "first login: null", "second login: null", "E FATAL 08P01 query timeout", "EOF");
    }

    /** A new database of the shared cluster, named after {@code prefix}. */
    private static String database(String prefix) {
        String db = PgCluster.uniqueName(prefix);
        PgCluster.shared().exec("create database " + db);
        return db;
    }

    /** {@code db} behind a transaction-pooling pool of one server; {@code settings} go under [pgbouncer]. */
    private static String poolOfOne(String db, String settings) {
        return "[databases]\n" + db + " = host=127.0.0.1 port=" + PgCluster.shared().port() + " pool_size=1\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\n" + settings;
    }

    /** Logs {@code c} in to {@code db} asking for {@code timeZone}: null at ReadyForQuery, else the error's fields. */
    private static Map<Character, String> login(RawClient c, String db, String timeZone) throws Exception {
        c.send(RawClient.startup(Map.of("user", "postgres", "database", db, "TimeZone", timeZone)));
        return c.readUntilReadyOrError();
    }
}
