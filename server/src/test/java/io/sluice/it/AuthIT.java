package io.sluice.it;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.Userlist;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 2, acceptance 3: md5 and SCRAM logins, and PgBouncer's refusals, each leaving others alone. */
class AuthIT {
    static PgCluster pg;
    static SluiceFixture sluice;
    static String db;
    static String md5User;
    static String scramUser;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("authdb");
        md5User = PgCluster.uniqueName("md5u");
        scramUser = PgCluster.uniqueName("scramu");
        pg.createUser(md5User, "md5-secret", Encryption.MD5);
        pg.createUser(scramUser, "scram-secret", Encryption.SCRAM);
        pg.createDatabase(db, PgCluster.SUPERUSER);
        pg.exec("grant all on database " + db + " to " + md5User + ", " + scramUser);
        String scramSecret = pg.query("select rolpassword from pg_authid where rolname = '" + scramUser + "'").get(0).get(0);
        assertThat(scramSecret).startsWith("SCRAM-SHA-256$");
        sluice = SluiceFixture.start(pg,
                db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = md5\npool_mode = transaction\nignore_startup_parameters = extra_float_digits",
                Userlist.md5Entry(md5User, "md5-secret") + "\n" + Userlist.entry(scramUser, scramSecret) + "\n");
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    @Test
    void md5UserLogsInWithPsql() {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, db, md5User, "md5-secret", "select current_user");
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.out()).isEqualTo(md5User);
    }

    @Test
    void scramUserLogsInWithPsqlAndPassesThroughToPostgres() {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, db, scramUser, "scram-secret", "select current_user");
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.out()).isEqualTo(scramUser);
    }

    /**
     * Issue 12 item 14: PgBouncer's words ("password authentication failed" for md5, "SASL
     * authentication failed" for SCRAM), with PostgreSQL's 28P01 kept for a wrong password.
     */
    @Test
    void wrongPasswordGets28P01WithPgBouncersText() throws Exception {
        try (Connection other = Jdbc.connect("127.0.0.1", sluice.port, db, md5User, "md5-secret", jdbcProps())) {
            for (String user : List.of(md5User, scramUser)) {
                String words = user.equals(md5User) ? "password authentication failed" : "SASL authentication failed";
                assertThatThrownBy(() -> Jdbc.connect("127.0.0.1", sluice.port, db, user, "wrong", jdbcProps()))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getSQLState()).isEqualTo("28P01");
                            assertThat(e.getMessage()).contains(words).doesNotContain("for user");
                        });
            }
            ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, db, md5User, "wrong", "select 1");
            assertThat(r.exitCode()).isNotZero();
            assertThat(r.stderr()).contains("FATAL:  password authentication failed\n");
            assertStillServes(other);
        }
    }

    @Test
    void unknownDatabaseGetsPgBouncersError() throws Exception {
        try (Connection other = Jdbc.connect("127.0.0.1", sluice.port, db, md5User, "md5-secret", jdbcProps())) {
            assertThatThrownBy(() -> Jdbc.connect("127.0.0.1", sluice.port, "nosuchdb", md5User, "md5-secret", jdbcProps()))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("08P01");
                        assertThat(e.getMessage()).contains("no such database: nosuchdb");
                    });
            assertStillServes(other);
        }
    }

    @Test
    void maxClientConnExceededGetsPgBouncersError() throws Exception {
        try (SluiceFixture small = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = md5\npool_mode = transaction\nmax_client_conn = 3\nignore_startup_parameters = extra_float_digits",
                Userlist.md5Entry(md5User, "md5-secret") + "\n")) {
            List<Connection> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    held.add(Jdbc.connect("127.0.0.1", small.port, db, md5User, "md5-secret", jdbcProps()));
                }
                assertThatThrownBy(() -> Jdbc.connect("127.0.0.1", small.port, db, md5User, "md5-secret", jdbcProps()))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getSQLState()).isEqualTo("08P01");
                            assertThat(e.getMessage()).contains("no more connections allowed (max_client_conn)");
                        });
                for (Connection c : held) {
                    assertStillServes(c);
                }
            } finally {
                for (Connection c : held) {
                    c.close();
                }
            }
        }
    }

    static Properties jdbcProps() {
        return new Properties();
    }

    static void assertStillServes(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); var rs = st.executeQuery("select 7")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(7);
        }
    }
}
