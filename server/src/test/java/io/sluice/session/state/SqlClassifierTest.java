package io.sluice.session.state;

import io.sluice.session.state.SqlCommand.Kind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlClassifierTest {
    private static SqlCommand one(String sql) {
        List<SqlCommand> all = SqlClassifier.classify(sql);
        assertEquals(1, all.size(), sql);
        return all.get(0);
    }

    @Test
    void splitsAtTopLevelSemicolonsOnly() {
        String sql = "select ';' as a; /* ; /* nested ; */ */ select $x$ ; $x$; select E'\\';'; "
                + "select \"a;b\" -- ;\n; ;; select 1";
        assertEquals(5, SqlClassifier.classify(sql).size());
        assertEquals(0, SqlClassifier.classify(" ; -- nothing\n").size());
    }

    @Test
    void setInItsSpellings() {
        SqlCommand c = one("SET statement_timeout = '5s'");
        assertEquals(Kind.SET, c.kind());
        assertEquals("statement_timeout", c.name());
        assertEquals("'5s'", c.value());
        assertEquals("search_path", one("set session search_path to a, \"B\"").name());
        assertEquals("a, \"B\"", one("set session search_path to a, \"B\"").value());
        assertEquals("app.user_id", one("SET app.user_id TO 42").name());
        assertEquals("timezone", one("SET TIME ZONE 'UTC'").name());
        assertEquals("client_encoding", one("set names 'utf8'").name());
        assertEquals("search_path", one("SET SCHEMA 'x'").name());
        assertEquals("role", one("set role alice").name());
        assertEquals("session_authorization", one("SET SESSION AUTHORIZATION bob").name());
        assertEquals(Kind.RESET, one("SET work_mem TO DEFAULT").kind());
        assertEquals(Kind.RESET, one("SET ROLE NONE").kind());
    }

    @Test
    void transactionScopedSetsAreNotTracked() {
        assertEquals(Kind.OTHER, one("SET LOCAL statement_timeout = 1").kind());
        assertEquals(Kind.OTHER, one("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE").kind());
        assertEquals(Kind.OTHER, one("set constraints all deferred").kind());
        assertEquals(Kind.OTHER, one("select set_config('a.b', 'x', true)").kind());
        assertEquals(Kind.OTHER, one("select set_config('a.b', 'x', 'on')").kind());
    }

    @Test
    void whatCannotBeReplayedIsUnsure() {
        assertEquals(Kind.UNSURE, one("select set_config('a.b', 'x', false)").kind());
        assertEquals(Kind.UNSURE, one("select set_config('a.b', 'x', $1)").kind());
        assertEquals(Kind.UNSURE, one("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY").kind());
        assertEquals(Kind.UNSURE, one("SET x").kind());
    }

    @Test
    void resetAndTransactionControl() {
        assertEquals(Kind.RESET_ALL, one("RESET ALL").kind());
        assertEquals("work_mem", one("reset work_mem").name());
        assertEquals("timezone", one("reset time zone").name());
        assertEquals(Kind.BEGIN, one("start transaction read only").kind());
        assertEquals(Kind.COMMIT, one("END").kind());
        assertEquals(Kind.ROLLBACK, one("abort").kind());
        assertEquals(Kind.OTHER, one("commit prepared 'x'").kind());
        SqlCommand to = one("ROLLBACK TO SAVEPOINT s1");
        assertEquals(Kind.ROLLBACK_TO, to.kind());
        assertEquals("s1", to.name());
        assertEquals("s1", one("release s1").name());
        assertEquals(Kind.SAVEPOINT, one("savepoint s1").kind());
    }

    @Test
    void sqlLevelPreparedStatements() {
        String sql = "PREPARE Foo (int) AS SELECT $1";
        SqlCommand p = one(sql);
        assertEquals(Kind.PREPARE, p.kind());
        assertEquals("foo", p.name());
        assertEquals(sql, p.value());
        assertEquals("Foo", sql.substring(p.nameStart(), p.nameEnd()));
        SqlCommand d = one("DEALLOCATE PREPARE \"Bar\"");
        assertEquals(Kind.DEALLOCATE, d.kind());
        assertEquals("Bar", d.name());
        assertEquals(Kind.DEALLOCATE_ALL, one("deallocate all").kind());
        assertEquals(Kind.OTHER, one("PREPARE TRANSACTION 'x'").kind());
        assertEquals(Kind.DISCARD_ALL, one("DISCARD ALL").kind());
    }

    @Test
    void pinCandidatesAreProbed() {
        for (String sql : List.of("LISTEN a", "UNLISTEN *", "create temp table t(a int)",
                "CREATE GLOBAL TEMPORARY TABLE t (a int)", "select * into temp t from x",
                "select pg_advisory_lock(1)", "SELECT pg_try_advisory_lock_shared(1, 2)",
                "select pg_advisory_unlock_all()", "declare c cursor with hold for select 1", "close c",
                "drop table t", "discard temp", "do $$begin end$$", "call p()")) {
            assertTrue(one(sql).probe(), sql);
        }
        for (String sql : List.of("select pg_advisory_xact_lock(1)", "select 'temp'", "select 1",
                "select \"listen\" from t")) {
            assertFalse(one(sql).probe(), sql);
        }
    }

    @Test
    void tagsMustMatch() {
        assertTrue(Kind.COMMIT.matches("ROLLBACK"));
        assertTrue(Kind.RESET.matches("SET"));
        assertFalse(Kind.SET.matches("SELECT 1"));
        assertTrue(Kind.OTHER.matches("anything"));
    }

    @Test
    void thePlainFastPathAgreesWithTheTokenizer() {
        for (String sql : List.of("SELECT abalance FROM pgbench_accounts WHERE aid = $1", "select 1;",
                "insert into t values (1), (2)", "UPDATE t SET a = 1", "with x as (select 1) select * from x",
                "UPDATE pgbench_accounts SET abalance = abalance + -4321 WHERE aid = 98765;",
                "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (3, 1, 9, -4, CURRENT_TIMESTAMP);")) {
            assertTrue(SqlClassifier.plain(sql), sql);
            assertEquals(1, SqlClassifier.classify(sql).size());
        }
        for (String sql : List.of("select 1; select 2", "select pg_advisory_lock(1)", "select * into temp t from x",
                "select set_config('a', 'b', false)", "SET x = 1", "-- c\nselect 1", "select 'a;b'",
                "listen x", "declare c cursor with hold for select 1", "SELECT PG_ADVISORY_LOCK(1)",
                "SELECT * INTO TEMP t FROM x", "select Set_Config('a', 'b', false)",
                "select * into Temporary t from x")) {
            assertFalse(SqlClassifier.plain(sql), sql);
        }
        assertEquals(2, SqlClassifier.classify("select 1; select 2").size());
    }
}
