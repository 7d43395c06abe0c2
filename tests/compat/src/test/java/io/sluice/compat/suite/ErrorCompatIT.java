package io.sluice.compat.suite;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Workload errors-in-tx and the login errors: SQLSTATE, severity, message, detail, position. */
class ErrorCompatIT {
    @BeforeAll
    static void tables() {
        CompatTargets t = CompatTargets.get();
        t.pg.exec(t.database, "CREATE TABLE IF NOT EXISTS uniq (id int PRIMARY KEY); INSERT INTO uniq VALUES (1) ON CONFLICT DO NOTHING;"
                + "CREATE TABLE IF NOT EXISTS parent (id int PRIMARY KEY);"
                + "CREATE TABLE IF NOT EXISTS child (pid int REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);"
                + "ALTER TABLE uniq OWNER TO " + CompatTargets.USER + "; ALTER TABLE parent OWNER TO " + CompatTargets.USER
                + "; ALTER TABLE child OWNER TO " + CompatTargets.USER);
    }

    private static List<String> session(int port, String db, String... statements) throws Exception {
        try (WireClient c = CompatTargets.get().login(port, db)) {
            List<String> all = new ArrayList<>();
            for (String s : statements) {
                all.addAll(c.simple(s));
            }
            return all;
        }
    }

    @Test
    void errorInsideTransactionAbortsItUntilRollback() throws Exception {
        List<String> seen = SideBySide.same("error in transaction", p -> session(p, "compat",
                "BEGIN", "SELECT 1/0", "SELECT 1", "ROLLBACK", "SELECT 2"));
        assertThat(seen).containsExactly("C BEGIN", "Z T",
                "E 22012 ERROR division by zero", "Z E",
                "E 25P02 ERROR current transaction is aborted, commands ignored until end of transaction block", "Z E",
                "C ROLLBACK", "Z I", "T ?column?", "D 2", "C SELECT 1", "Z I");
    }

    @Test
    void commitOfAbortedTransactionReportsRollback() throws Exception {
        List<String> seen = SideBySide.same("COMMIT after error", p -> session(p, "compat", "BEGIN", "SELECT x_missing", "COMMIT"));
        assertThat(seen).contains("C ROLLBACK").anyMatch(s -> s.startsWith("E 42703 ERROR column \"x_missing\" does not exist"));
    }

    @Test
    void syntaxErrorWithPosition() throws Exception {
        List<String> seen = SideBySide.same("syntax error", p -> session(p, "compat", "SELEC 1"));
        assertThat(seen).containsExactly("E 42601 ERROR syntax error at or near \"SELEC\" [P:1]", "Z I");
    }

    @Test
    void undefinedTable() throws Exception {
        List<String> seen = SideBySide.same("undefined table", p -> session(p, "compat", "SELECT * FROM no_such_table"));
        assertThat(seen).containsExactly("E 42P01 ERROR relation \"no_such_table\" does not exist [P:15]", "Z I");
    }

    @Test
    void uniqueViolationWithDetail() throws Exception {
        List<String> seen = SideBySide.same("unique violation", p -> session(p, "compat",
                "INSERT INTO uniq VALUES (1)"));
        assertThat(seen).anyMatch(s -> s.startsWith("E 23505 ERROR duplicate key value violates unique constraint \"uniq_pkey\"")
                && s.contains("[D:Key (id)=(1) already exists.]"));
    }

    @Test
    void deferredConstraintFailsAtCommit() throws Exception {
        List<String> seen = SideBySide.same("deferred FK at COMMIT", p -> session(p, "compat",
                "BEGIN", "INSERT INTO child VALUES (999)", "COMMIT"));
        assertThat(seen).contains("C INSERT 0 1").anyMatch(s -> s.startsWith("E 23503 ERROR insert or update on table \"child\""))
                .endsWith("Z I");
    }

    @Test
    void extendedProtocolErrorSkipsToSync() throws Exception {
        List<String> seen = SideBySide.same("extended error then recovery", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                List<String> all = new ArrayList<>(c.extended("", "SELECT 1/$1::int", "0"));
                all.addAll(c.extended("", "SELECT $1::int + 1", "1"));
                return all;
            }
        });
        // 1/0 on a constant parameter fails while binding (the planner folds it): no BindComplete
        assertThat(seen).containsExactly("1", "E 22012 ERROR division by zero", "Z I",
                "1", "2", "T ?column?", "D 2", "C SELECT 1", "Z I");
    }

    @Test
    void errorInMultiStatementQueryStopsTheRest() throws Exception {
        List<String> seen = SideBySide.same("multi-statement error", p -> session(p, "compat",
                "SELECT 1; SELECT 1/0; SELECT 3"));
        assertThat(seen).containsExactly("T ?column?", "D 1", "C SELECT 1", "E 22012 ERROR division by zero", "Z I");
    }

    @Test
    void unknownDatabaseAtLogin() throws Exception {
        List<String> seen = SideBySide.same("unknown database", p -> List.of(loginError(p, "no_such_db", CompatTargets.PASSWORD)));
        assertThat(seen).containsExactly("08P01 FATAL no such database: no_such_db");
    }

    @Test
    void wrongPasswordIsAnIntendedDifference() throws Exception {
        CompatTargets t = CompatTargets.get();
        // IntendedDifferences.WRONG_PASSWORD: same rejection and text, PostgreSQL's code under Sluice.
        assertThat(loginError(t.pgbouncer.port(), "compat", "wrong")).isEqualTo(
                "08P01 FATAL password authentication failed");
        assertThat(loginError(t.sluice.port(), "compat", "wrong")).isEqualTo(
                "28P01 FATAL password authentication failed");
        assertThat(IntendedDifferences.ALL).contains(IntendedDifferences.WRONG_PASSWORD);
    }

    private static String loginError(int port, String db, String password) {
        try {
            WireClient.connect(port, db, CompatTargets.USER, password, Map.of()).close();
            throw new AssertionError("login to " + db + " succeeded");
        } catch (WireClient.LoginError e) {
            return e.getMessage();
        } catch (java.io.IOException e) {
            throw new AssertionError("no ErrorResponse: " + e, e);
        }
    }

    @Test
    void loginErrorIsNotAcceptedSilently() {
        assertThatThrownBy(() -> WireClient.connect(CompatTargets.get().sluice.port(), "no_such_db",
                CompatTargets.USER, CompatTargets.PASSWORD, Map.of())).isInstanceOf(WireClient.LoginError.class);
    }
}
