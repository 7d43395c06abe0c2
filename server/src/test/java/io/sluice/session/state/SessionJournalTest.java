package io.sluice.session.state;

import io.sluice.proto.TransactionStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SessionJournalTest {
    final SessionJournal j = new SessionJournal(Set.of("timezone", "application_name"));
    final ServerSession server = new ServerSession(10);

    /** Runs {@code sql} as one Query: each statement completes with {@code tags}, then ReadyForQuery. */
    void query(String sql, TransactionStatus end, String... tags) {
        List<SqlCommand> cmds = SqlClassifier.classify(sql);
        for (int i = 0; i < tags.length; i++) {
            j.completed(cmds.get(i), tags[i], server);
        }
        if (tags.length < cmds.size()) {
            j.error();
        }
        j.ready(end, server);
    }

    @Test
    void autocommitSetAppliesToClientAndServer() {
        query("set statement_timeout = '5s'", TransactionStatus.IDLE, "SET");
        assertEquals(Map.of("statement_timeout", "'5s'"), j.settings());
        assertEquals(Map.of("statement_timeout", "'5s'"), server.settings());
    }

    @Test
    void anErrorLaterInTheImplicitTransactionUndoesTheSet() {
        query("set work_mem = '1MB'; select 1/0", TransactionStatus.IDLE, "SET");
        assertTrue(j.settings().isEmpty());
        assertTrue(server.settings().isEmpty());
    }

    @Test
    void commitInsideAMultiStatementQueryCommitsTheSet() {
        query("set work_mem = '1MB'; commit; select 1/0", TransactionStatus.IDLE, "SET", "COMMIT");
        assertEquals("'1MB'", j.settings().get("work_mem"));
    }

    @Test
    void explicitTransactionsAndSavepoints() {
        query("begin", TransactionStatus.IN_TRANSACTION, "BEGIN");
        query("set a.x = 1", TransactionStatus.IN_TRANSACTION, "SET");
        query("savepoint s", TransactionStatus.IN_TRANSACTION, "SAVEPOINT");
        query("set a.y = 2", TransactionStatus.IN_TRANSACTION, "SET");
        query("select 1/0", TransactionStatus.FAILED);
        query("rollback to s", TransactionStatus.IN_TRANSACTION, "ROLLBACK");
        assertTrue(j.settings().isEmpty(), "nothing before commit");
        query("commit", TransactionStatus.IDLE, "COMMIT");
        assertEquals(Map.of("a.x", "1"), j.settings());
    }

    @Test
    void rollbackAndFailedCommitDropTheTransactionsSets() {
        query("begin; set a.x = 1", TransactionStatus.IN_TRANSACTION, "BEGIN", "SET");
        query("rollback", TransactionStatus.IDLE, "ROLLBACK");
        query("begin; set a.x = 1", TransactionStatus.IN_TRANSACTION, "BEGIN", "SET");
        query("select 1/0", TransactionStatus.FAILED);
        query("commit", TransactionStatus.IDLE, "ROLLBACK");
        assertTrue(j.settings().isEmpty());
    }

    @Test
    void resetAndResetAll() {
        query("set a.x = 1; set a.y = 2", TransactionStatus.IDLE, "SET", "SET");
        query("reset a.x", TransactionStatus.IDLE, "RESET");
        assertEquals(Map.of("a.y", "2"), j.settings());
        query("set a.y to default", TransactionStatus.IDLE, "SET");
        assertTrue(j.settings().isEmpty());
        query("set a.z = 3", TransactionStatus.IDLE, "SET");
        query("reset all", TransactionStatus.IDLE, "RESET");
        assertTrue(j.settings().isEmpty() && server.settings().isEmpty());
    }

    @Test
    void parametersReportedByTheServerAreLeftToParameterStatus() {
        query("set time zone 'UTC'; set application_name = 'x'", TransactionStatus.IDLE, "SET", "SET");
        assertTrue(j.settings().isEmpty());
    }

    @Test
    void unsureUntilResetAll() {
        query("select set_config('a.b', 'x', false)", TransactionStatus.IDLE, "SELECT 1");
        assertNotNull(j.unsure());
        query("reset all", TransactionStatus.IDLE, "RESET");
        assertNull(j.unsure());
    }

    @Test
    void anUnexpectedTagMakesTheSessionUnsure() {
        query("set a.x = 1", TransactionStatus.IDLE, "SELECT 1");
        assertNotNull(j.unsure());
        assertTrue(j.settings().isEmpty());
    }

    @Test
    void preparedStatementsAreNotTransactional() {
        query("begin; prepare p as select 1", TransactionStatus.IN_TRANSACTION, "BEGIN", "PREPARE");
        query("rollback", TransactionStatus.IDLE, "ROLLBACK");
        assertEquals(Map.of("p", "prepare p as select 1"), j.sqlPrepared());
        assertEquals(j.sqlPrepared(), server.sqlPrepared());
        query("deallocate p", TransactionStatus.IDLE, "DEALLOCATE");
        assertTrue(j.sqlPrepared().isEmpty() && server.sqlPrepared().isEmpty());
        query("prepare q as select 2; discard all", TransactionStatus.IDLE, "PREPARE", "DISCARD ALL");
        assertTrue(j.sqlPrepared().isEmpty());
    }

    @Test
    void probeIsAskedForOnceTheTransactionEnds() {
        List<SqlCommand> cmds = SqlClassifier.classify("listen a");
        j.completed(cmds.get(0), "LISTEN", server);
        assertFalse(j.ready(TransactionStatus.IN_TRANSACTION, server));
        assertTrue(j.ready(TransactionStatus.IDLE, server));
        assertFalse(j.ready(TransactionStatus.IDLE, server));
    }

    @Test
    void syncPlanResetsWhatAnotherClientSetAndSetsOwnValues() {
        ServerSession used = new ServerSession(10);
        used.settings().put("work_mem", "'64MB'");
        used.settings().put("a.same", "1");
        used.sqlPrepared().put("other", "prepare other as select 1");
        query("set a.same = 1; set statement_timeout = 5", TransactionStatus.IDLE, "SET", "SET");
        query("prepare mine as select 2", TransactionStatus.IDLE, "PREPARE");
        SyncPlan plan = SyncPlan.between(j, used);
        assertEquals("RESET \"work_mem\";", plan.resets());
        assertEquals("SET \"statement_timeout\" TO 5;", plan.sets());
        assertEquals(List.of("other"), plan.deallocates());
        assertEquals(List.of("mine"), plan.prepares());
        assertTrue(SyncPlan.between(j, server).empty(), "the server it ran on already matches");
        assertEquals("\"a\".\"b\"\"c\"", SyncPlan.quoteName("a.b\"c"));
    }

    @Test
    void undoingWhatWasNeverDoneLeavesAnEmptyJournal() {
        // nothing to undo: each of these finds its collection empty
        query("reset work_mem", TransactionStatus.IDLE, "RESET");
        query("deallocate nothing_here", TransactionStatus.IDLE, "DEALLOCATE");
        query("deallocate all", TransactionStatus.IDLE, "DEALLOCATE ALL");
        query("reset all", TransactionStatus.IDLE, "RESET");
        query("begin", TransactionStatus.IN_TRANSACTION, "BEGIN");
        query("rollback to s", TransactionStatus.FAILED);
        query("release s", TransactionStatus.FAILED);
        query("rollback", TransactionStatus.IDLE, "ROLLBACK");
        query("discard all", TransactionStatus.IDLE, "DISCARD ALL");
        assertTrue(j.settings().isEmpty());
        assertTrue(j.sqlPrepared().isEmpty());
        assertNull(j.unsure());

        // and after a DISCARD ALL, a savepoint with nothing pending, then a SET that commits
        query("begin", TransactionStatus.IN_TRANSACTION, "BEGIN");
        query("savepoint s", TransactionStatus.IN_TRANSACTION, "SAVEPOINT");
        query("rollback to s", TransactionStatus.IN_TRANSACTION, "ROLLBACK");
        query("set work_mem = '2MB'", TransactionStatus.IN_TRANSACTION, "SET");
        query("release s", TransactionStatus.IN_TRANSACTION, "RELEASE");
        query("commit", TransactionStatus.IDLE, "COMMIT");
        assertEquals(Map.of("work_mem", "'2MB'"), j.settings());
        query("prepare p as select 1", TransactionStatus.IDLE, "PREPARE");
        query("deallocate p", TransactionStatus.IDLE, "DEALLOCATE");
        assertTrue(j.sqlPrepared().isEmpty());
        query("reset work_mem", TransactionStatus.IDLE, "RESET");
        assertTrue(j.settings().isEmpty());
        assertTrue(server.settings().isEmpty());
    }
}
