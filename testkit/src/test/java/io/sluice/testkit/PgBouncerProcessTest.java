package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Debian's PgBouncer in front of the shared cluster, transaction pooling, md5 userlist entry.
 * Skipped where PgBouncer is not installed, but a failure when CI=true (CI must install it).
 */
class PgBouncerProcessTest {

    @BeforeAll
    static void requirePgBouncer() {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            assertTrue(PgBouncerProcess.available(), "CI=true but PgBouncer is missing at " + PgBouncerProcess.binary());
        } else {
            Assumptions.assumeTrue(PgBouncerProcess.available(), "PgBouncer not installed at " + PgBouncerProcess.binary());
        }
    }

    @Test
    void proxiesSelect1InTransactionModeWithAnMd5UserlistEntry() throws SQLException {
        PgCluster pg = PgCluster.shared();
        String user = PgCluster.uniqueName("bouncedu");
        pg.createUser(user, "bounce pw", Encryption.MD5);
        String ini = "[databases]\n"
                + "testdb = host=127.0.0.1 port=" + pg.port() + " dbname=postgres\n"
                + "[pgbouncer]\n"
                + "auth_type = md5\n"
                + "pool_mode = transaction\n"
                + "ignore_startup_parameters = extra_float_digits\n";

        try (PgBouncerProcess bouncer = PgBouncerProcess.start(ini, Userlist.md5Entry(user, "bounce pw"))) {
            assertThat(bouncer.port()).isNotEqualTo(pg.port());
            if (OsUser.isRoot()) {
                // PgBouncer refuses root: the fixture must have dropped to the service user.
                assertThat(ProcessHandle.of(bouncer.pid()).flatMap(h -> h.info().user())).contains("postgres");
            }
            try (Connection c = bouncer.connect("testdb", user, "bounce pw");
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("select 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
            ProcessResult viaPsql = ProcessRunner.psql(bouncer.host(), bouncer.port(), "testdb", user, "bounce pw",
                    "select current_user");
            assertThat(viaPsql.requireSuccess().out()).isEqualTo(user);

            assertThatThrownBy(() -> bouncer.connect("testdb", user, "wrong").close())
                    .isInstanceOf(SQLException.class)
                    // PgBouncer 1.18 answers SQLSTATE 08P01 here (not PostgreSQL's 28P01): assert the text only.
                    .hasMessageContaining("password authentication failed");
            assertThat(bouncer.logText()).contains("listening on 127.0.0.1:" + bouncer.port());

            bouncer.stop();
            assertThat(bouncer.waitFor(java.time.Duration.ZERO)).isTrue();
            assertThat(bouncer.dir()).doesNotExist();
            assertThat(bouncer.logText()).contains("listening on");
        }
    }

    @Test
    void reportsItsVersion() {
        assertThat(PgBouncerProcess.version()).matches("\\d+\\.\\d+\\.\\d+");
    }

    @Test
    void aConfigPgBouncerRejectsFailsTheStartWithItsOutput() {
        assertThatThrownBy(() -> PgBouncerProcess.start("[pgbouncer]\npool_mode = sideways\n", null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pgbouncer exited")
                .hasMessageContaining("sideways");
    }
}
