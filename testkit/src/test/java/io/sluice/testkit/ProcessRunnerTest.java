package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** External commands: exit codes, env, stdin, hard timeout, and the psql/pgbench helpers. */
class ProcessRunnerTest {

    @Test
    void capturesExitCodeOutputsAndEnv() {
        ProcessResult r = ProcessRunner.of("sh", "-c", "echo \"out $FOO\"; read line; echo \"err $line\" >&2; exit 3")
                .env("FOO", "bar").stdin("fed\n").run();
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.ok()).isFalse();
        assertThat(r.timedOut()).isFalse();
        assertThat(r.out()).isEqualTo("out bar");
        assertThat(r.stderr()).isEqualTo("err fed\n");
    }

    @Test
    void killsTheCommandWhenTheHardTimeoutExpires() {
        ProcessResult r = ProcessRunner.of("sleep", "600").timeout(Duration.ofMillis(200)).run();
        assertThat(r.timedOut()).isTrue();
        assertThat(r.exitCode()).isEqualTo(-1);
        assertThat(r.ok()).isFalse();
    }

    @Test
    void psqlRunsAQueryAsAPasswordUser() {
        PgCluster pg = PgCluster.shared();
        String user = PgCluster.uniqueName("psqlu");
        pg.createUser(user, "pw'1", Encryption.SCRAM);

        ProcessResult r = ProcessRunner.psql(pg.host(), pg.port(), "postgres", user, "pw'1", "select 40 + 2, current_user");
        assertThat(r.requireSuccess().out()).isEqualTo("42|" + user);

        ProcessResult bad = ProcessRunner.psql(pg.host(), pg.port(), "postgres", user, "nope", "select 1");
        assertThat(bad.ok()).isFalse();
        assertThat(bad.stderr()).contains("password authentication failed for user \"" + user + "\"");

        ProcessResult error = ProcessRunner.psql(pg.host(), pg.port(), "postgres", user, "pw'1", "select * from no_such");
        assertThat(error.exitCode()).isEqualTo(1);
        assertThat(error.stderr()).contains("relation \"no_such\" does not exist");
    }

    @Test
    void pgbenchInitialisesAndRunsAgainstTheCluster() {
        PgCluster pg = PgCluster.shared();
        String user = PgCluster.uniqueName("benchu");
        String db = PgCluster.uniqueName("benchdb");
        pg.createUser(user, "pw", Encryption.MD5);
        pg.createDatabase(db, user);
        String[] conn = {"-h", pg.host(), "-p", Integer.toString(pg.port()), "-U", user};

        ProcessRunner.pgbenchCommand(concat(new String[] {"-i", "-s", "1", "-q"}, conn, db))
                .env("PGPASSWORD", "pw").run().requireSuccess();
        ProcessResult run = ProcessRunner.pgbenchCommand(concat(new String[] {"-n", "-S", "-c", "2", "-t", "20"}, conn, db))
                .env("PGPASSWORD", "pw").run().requireSuccess();
        assertThat(run.stdout()).contains("number of transactions actually processed: 40/40");
        assertThat(ProcessRunner.pgbench("--version").requireSuccess().out()).startsWith("pgbench (PostgreSQL)");
    }

    private static String[] concat(String[] a, String[] b, String last) {
        String[] all = new String[a.length + b.length + 1];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        all[all.length - 1] = last;
        return all;
    }
}
