package io.sluice.it;

import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Unix-socket listening with peer-credential console access, and statement pooling's refusal. */
class ConsoleAndModesIT {
    static SluiceFixture sluice;

    @BeforeAll
    static void start() throws Exception {
        PgCluster pg = PgCluster.shared();
        sluice = SluiceFixture.start(pg,
                "postgres = host=127.0.0.1 port=$PGPORT\nstmt = host=127.0.0.1 port=$PGPORT dbname=postgres pool_mode=statement",
                "auth_type = trust\npool_mode = transaction\nstats_users = watcher",
                "\"postgres\" \"\"\n\"watcher\" \"\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    @Test
    void userPgbouncerOverUnixSocketWithOwnUidIsAdminWithoutPassword() {
        ProcessResult r = ProcessRunner.psql(sluice.dir.toString(), sluice.port, "pgbouncer", "pgbouncer", null, "show version");
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.out()).startsWith("PgBouncer 1.25.2");
    }

    @Test
    void userPgbouncerOverTcpIsNotAllowed() {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, "pgbouncer", "pgbouncer", null, "show version");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("not allowed");
    }

    @Test
    void statsUserMayShowButNotControl() {
        ProcessResult show = ProcessRunner.psql("127.0.0.1", sluice.port, "pgbouncer", "watcher", null, "show pools");
        assertThat(show.exitCode()).as(show.describe()).isZero();
        assertThat(show.out()).contains("pgbouncer|pgbouncer");
        ProcessResult reload = ProcessRunner.psql("127.0.0.1", sluice.port, "pgbouncer", "watcher", null, "reload");
        assertThat(reload.exitCode()).isNotZero();
        assertThat(reload.stderr()).contains("admin access needed");
    }

    @Test
    void pooledClientsWorkOverTheUnixSocketToo() {
        ProcessResult r = ProcessRunner.psql(sluice.dir.toString(), sluice.port, "postgres", "postgres", null, "select 5*5");
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.out()).isEqualTo("25");
    }

    @Test
    void statementModeRefusesTransactionBlocks() {
        ProcessResult ok = ProcessRunner.psql("127.0.0.1", sluice.port, "stmt", "postgres", null, "select 3");
        assertThat(ok.out()).isEqualTo("3");
        ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, "stmt", "postgres", null, "begin; select 1");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("transaction blocks not allowed in statement pooling mode");
    }
}
