package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PAUSE lets running transactions finish and holds new ones, each under query_wait_timeout;
 * RESUME lets them through.
 */
class PauseResumeIT {
    @Test
    void pauseDuringPgbenchLosesNoTransaction() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("pausedb");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        try (SluiceFixture s = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 5\nadmin_users = postgres",
                "\"postgres\" \"\"\n")) {
            String port = String.valueOf(s.port);
            ProcessRunner.pgbenchCommand("-i", "-h", "127.0.0.1", "-p", port, "-U", "postgres", db).run().requireSuccess();
            CompletableFuture<ProcessResult> bench = CompletableFuture.supplyAsync(() -> ProcessRunner
                    .pgbenchCommand("-c", "10", "-j", "2", "-T", "10", "-h", "127.0.0.1", "-p", port, "-U", "postgres", db)
                    .timeout(Duration.ofMinutes(1)).run());
            Await.until(Duration.ofSeconds(20), () -> stat(s, "show stats", db, "total_xact_count") > 200,
                    "pgbench running through Sluice");
            ProcessResult pause = console(s, "pause");
            assertThat(pause.exitCode()).as(pause.describe()).isZero();
            assertThat(stat(s, "show pools", db, "sv_active")).isZero();
            assertThat(stat(s, "show pools", db, "sv_idle")).as("servers closed in pause mode").isZero();
            assertThat(stat(s, "show databases", db, "paused")).as("the column is PAUSE db's mark, as PgBouncer's")
                    .isZero();
            Await.until(Duration.ofSeconds(20), () -> stat(s, "show pools", db, "cl_waiting") > 0,
                    "new transactions held while paused");
            ProcessResult resume = console(s, "resume");
            assertThat(resume.exitCode()).as(resume.describe()).isZero();
            ProcessResult result = bench.get(60, TimeUnit.SECONDS);
            assertThat(result.exitCode()).as(result.describe()).isZero();
            assertThat(PgbenchTransactionModeIT.number(result.stdout(), "number of failed transactions: (\\d+)")).isZero();
        }
    }

    /**
     * A request held by PAUSE is under query_wait_timeout, as PgBouncer's waiting clients are:
     * it ends with "query_wait_timeout" instead of waiting for RESUME without bound. Same
     * scenario on Debian's PgBouncer when installed.
     */
    @Test
    void aRequestHeldByPauseEndsAtQueryWaitTimeoutAsInPgBouncer() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("pausewait");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        String ini = "[databases]\n" + db + " = host=127.0.0.1 port=" + pg.port() + "\n[pgbouncer]\n"
                + "auth_type = trust\npool_mode = transaction\nadmin_users = postgres\nquery_wait_timeout = 2\n";
        String users = "\"postgres\" \"\"\n";
        Map<String, String> seen = new LinkedHashMap<>();
        Pooler.inTurn(ini, users, p -> {
            assertThat(query(p, db).stdout().trim()).as("%s before PAUSE", p).isEqualTo("1");
            ProcessResult pause = ProcessRunner.psql("127.0.0.1", p.port(), "pgbouncer", "postgres", null,
                    "PAUSE " + db);
            assertThat(pause.exitCode()).as(pause.describe()).isZero();

            ProcessResult held = query(p, db);
            seen.put(p.toString(), held.exitCode() + " " + held.stderr().lines()
                    .filter(l -> l.contains("FATAL") || l.contains("ERROR")).findFirst().orElse(held.stderr()));

            ProcessResult resume = ProcessRunner.psql("127.0.0.1", p.port(), "pgbouncer", "postgres", null,
                    "RESUME " + db);
            assertThat(resume.exitCode()).as(resume.describe()).isZero();
            assertThat(query(p, db).stdout().trim()).as("%s after RESUME", p).isEqualTo("1");
        });
        System.out.println("query held by PAUSE, query_wait_timeout = 2: " + seen);
        assertThat(seen.values()).allSatisfy(v -> assertThat(v).isEqualTo("2 FATAL:  query_wait_timeout"));
    }

    private static ProcessResult query(Pooler p, String db) {
        return ProcessRunner.psqlCommand("127.0.0.1", p.port(), db, "postgres", null, "select 1")
                .timeout(Duration.ofSeconds(30)).run();
    }

    static ProcessResult console(SluiceFixture s, String sql) {
        return ProcessRunner.psql("127.0.0.1", s.port, "pgbouncer", "postgres", null, sql);
    }

    /** A numeric column of the row whose first column is {@code key}. */
    static long stat(SluiceFixture s, String show, String key, String column) {
        return stat(s.port, show, key, column);
    }

    /** {@link #stat(SluiceFixture, String, String, String)} on the pooler listening on {@code port}. */
    static long stat(int port, String show, String key, String column) {
        String table = show(port, show);
        String v = cell(table, key, column);
        if (v == null) {
            throw new AssertionError("no row " + key + " with " + column + " in:\n" + table);
        }
        return Long.parseLong(v);
    }

    /** The text in {@code column} of the row whose first column is {@code key}; null when there is none. */
    static String cell(int port, String show, String key, String column) {
        return cell(show(port, show), key, column);
    }

    /** A console command's answer in psql's unaligned form: a header line, then one line a row. */
    private static String show(int port, String show) {
        return ProcessRunner.of("psql", "-X", "-A", "-h", "127.0.0.1", "-p", String.valueOf(port),
                "-U", "postgres", "-d", "pgbouncer", "-c", show).env("PGOPTIONS", null).run().requireSuccess().stdout();
    }

    private static String cell(String table, String key, String column) {
        String[] lines = table.split("\n");
        String[] names = lines[0].split("\\|");
        for (String line : lines) {
            String[] cells = line.split("\\|", -1);
            if (cells.length == names.length && cells[0].equals(key)) {
                for (int i = 0; i < names.length; i++) {
                    if (names[i].equals(column)) {
                        return cells[i];
                    }
                }
            }
        }
        return null;
    }
}
