package io.sluice.compat.suite;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workloads select-only and tpcb-like in simple, extended and prepared modes, plus the plain
 * query-protocol behaviours around them: rows, command tags, ParameterStatus, notices.
 */
class QueryCompatIT {
    @BeforeAll
    static void tables() {
        CompatTargets t = CompatTargets.get();
        t.pg.exec(t.database, "CREATE TABLE IF NOT EXISTS accounts (aid int PRIMARY KEY, abalance int NOT NULL, filler text);"
                + "INSERT INTO accounts SELECT g, 0, NULL FROM generate_series(1, 100) g ON CONFLICT DO NOTHING;"
                + "CREATE TABLE IF NOT EXISTS history (aid int, delta int);"
                + "ALTER TABLE accounts OWNER TO " + CompatTargets.USER + "; ALTER TABLE history OWNER TO " + CompatTargets.USER);
    }

    private static List<String> simple(int port, String db, String sql) throws Exception {
        try (WireClient c = CompatTargets.get().login(port, db)) {
            return c.simple(sql);
        }
    }

    @Test
    void selectOnlySimpleModeRowsAndTag() throws Exception {
        List<String> seen = SideBySide.same("select-only simple", p -> simple(p, "compat",
                "SELECT aid, abalance, filler FROM accounts WHERE aid = 42"));
        assertThat(seen).containsExactly("T aid,abalance,filler", "D 42|0|NULL", "C SELECT 1", "Z I");
    }

    @Test
    void selectOnlyExtendedModeUnnamedStatement() throws Exception {
        List<String> seen = SideBySide.same("select-only extended", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                return c.extended("", "SELECT aid, abalance FROM accounts WHERE aid = $1", "7");
            }
        });
        assertThat(seen).containsExactly("1", "2", "T aid,abalance", "D 7|0", "C SELECT 1", "Z I");
    }

    @Test
    void selectOnlyPreparedModeNamedStatementReusedInSessionPool() throws Exception {
        List<String> seen = SideBySide.same("select-only prepared (session pool)", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat_session")) {
                List<String> all = new ArrayList<>(c.extended("sel", "SELECT abalance FROM accounts WHERE aid = $1", "1"));
                all.addAll(c.bindExecute("sel", "2"));
                all.addAll(c.simple("DEALLOCATE sel"));
                return all;
            }
        });
        assertThat(seen).contains("D 0", "C DEALLOCATE").filteredOn("C SELECT 1"::equals).hasSize(2);
    }

    @Test
    void tpcbLikeTransactionTags() throws Exception {
        List<String> seen = SideBySide.same("tpcb-like simple", p -> simple(p, "compat",
                "BEGIN; UPDATE accounts SET abalance = abalance + 5 WHERE aid = 3; SELECT abalance FROM accounts WHERE aid = 3;"
                        + " INSERT INTO history VALUES (3, 5); UPDATE accounts SET abalance = abalance - 5 WHERE aid = 3; END;"));
        assertThat(seen).containsSubsequence("C BEGIN", "C UPDATE 1", "C SELECT 1", "C INSERT 0 1", "C UPDATE 1", "C COMMIT", "Z I");
    }

    @Test
    void tpcbLikeExtendedInsideExplicitTransaction() throws Exception {
        List<String> seen = SideBySide.same("tpcb-like extended", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                List<String> all = new ArrayList<>(c.simple("BEGIN"));
                all.addAll(c.extended("", "UPDATE accounts SET abalance = abalance + $1 WHERE aid = $2", "0", "4"));
                all.addAll(c.simple("COMMIT"));
                return all;
            }
        });
        assertThat(seen).containsExactly("C BEGIN", "Z T", "1", "2", "n", "C UPDATE 1", "Z T", "C COMMIT", "Z I");
    }

    @Test
    void emptyQuery() throws Exception {
        assertThat(SideBySide.same("empty query", p -> simple(p, "compat", ""))).containsExactly("I", "Z I");
    }

    @Test
    void multiRowResultOrderAndCount() throws Exception {
        List<String> seen = SideBySide.same("5000-row result", p -> simple(p, "compat",
                "SELECT g, repeat('x', g % 50) FROM generate_series(1, 5000) g"));
        assertThat(seen).hasSize(5003).endsWith("C SELECT 5000", "Z I");
    }

    @Test
    void startupParameterStatusMatches() throws Exception {
        List<String> seen = SideBySide.same("ParameterStatus at login", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                return c.parameters.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();
            }
        });
        assertThat(seen).contains("client_encoding=UTF8", "integer_datetimes=on", "standard_conforming_strings=on")
                .anyMatch(s -> s.startsWith("server_version="));
    }

    @Test
    void startupOptionsClientEncodingAndApplicationName() throws Exception {
        List<String> seen = SideBySide.same("startup client_encoding/application_name", p -> {
            try (WireClient c = WireClient.connect(p, "compat", CompatTargets.USER, CompatTargets.PASSWORD,
                    Map.of("client_encoding", "LATIN1", "application_name", "compat-app"))) {
                List<String> all = new ArrayList<>();
                all.add("client_encoding=" + c.parameters.get("client_encoding"));
                all.add("application_name=" + c.parameters.get("application_name"));
                all.addAll(c.simple("SHOW client_encoding"));
                return all;
            }
        });
        assertThat(seen).contains("client_encoding=LATIN1", "application_name=compat-app", "D LATIN1");
    }

    @Test
    void setReportsParameterStatusInSessionPool() throws Exception {
        List<String> seen = SideBySide.same("SET application_name", p -> simple(p, "compat_session",
                "SET application_name = 'renamed'"));
        assertThat(seen).containsExactly("C SET", "S application_name=renamed", "Z I");
    }

    @Test
    void noticeFromServerIsRelayed() throws Exception {
        List<String> seen = SideBySide.same("RAISE NOTICE", p -> simple(p, "compat",
                "DO $$ BEGIN RAISE NOTICE 'hello %', 42; END $$"));
        assertThat(seen).containsExactly("N 00000 NOTICE hello 42", "C DO", "Z I");
    }

    @Test
    void transactionStatusInReadyForQuery() throws Exception {
        List<String> seen = SideBySide.same("ReadyForQuery status", p -> {
            try (WireClient c = CompatTargets.get().login(p, "compat")) {
                List<String> all = new ArrayList<>(c.simple("BEGIN"));
                all.addAll(c.simple("SELECT 1"));
                all.addAll(c.simple("ROLLBACK"));
                return all;
            }
        });
        assertThat(seen).containsExactly("C BEGIN", "Z T", "T ?column?", "D 1", "C SELECT 1", "Z T", "C ROLLBACK", "Z I");
    }
}
