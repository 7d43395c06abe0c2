package io.sluice.it;

import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 2, acceptance 2: pgbench -c 100 through a transaction-mode pool of 20. */
class PgbenchTransactionModeIT {
    static PgCluster pg;
    static SluiceFixture sluice;
    static String db;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("bench");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        sluice = SluiceFixture.start(pg,
                db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 20\nmax_client_conn = 300",
                "\"postgres\" \"\"\n");
        ProcessResult init = ProcessRunner.pgbenchCommand("-i", "-s", "2", "-h", "127.0.0.1",
                "-p", String.valueOf(sluice.port), "-U", "postgres", db).timeout(Duration.ofMinutes(3)).run();
        assertThat(init.exitCode()).as(init.describe()).isZero();
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"simple", "extended"})
    void hundredClientsOnTwentyBackends(String protocol) throws Exception {
        ProcessResult run;
        int maxBackends;
        try (BackendWatcher watcher = new BackendWatcher(pg, db)) {
            run = ProcessRunner.pgbenchCommand("-c", "100", "-j", "2", "-T", "20", "-M", protocol,
                    "-h", "127.0.0.1", "-p", String.valueOf(sluice.port), "-U", "postgres", db)
                    .timeout(Duration.ofMinutes(2)).run();
            maxBackends = watcher.max();
            assertThat(watcher.samples()).as("pg_stat_activity samples").isGreaterThan(10);
        }
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(number(run.stdout(), "number of failed transactions: (\\d+)")).isZero();
        assertThat(number(run.stdout(), "number of transactions actually processed: (\\d+)")).isGreaterThan(1000);
        assertThat(maxBackends).as("backends PostgreSQL saw for the pool").isBetween(1, 20);
        System.out.printf("pgbench -M %s through Sluice: max backends %d%n%s%n", protocol, maxBackends, run.stdout());
    }

    static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("'" + regex + "' in pgbench output:\n" + text).isTrue();
        return Long.parseLong(m.group(1));
    }
}
