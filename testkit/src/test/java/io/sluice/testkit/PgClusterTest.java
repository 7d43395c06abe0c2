package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A real cluster: md5 and SCRAM roles log in over TCP, a wrong password is refused with 28P01. */
class PgClusterTest {

    @Test
    void md5AndScramUsersConnectAndRunSelect1() throws SQLException {
        PgCluster pg = PgCluster.shared();
        String md5User = PgCluster.uniqueName("md5u");
        String scramUser = PgCluster.uniqueName("scramu");
        pg.createUser(md5User, "md5 secret", Encryption.MD5);
        pg.createUser(scramUser, "scram secret", Encryption.SCRAM);

        assertThat(pg.query("select rolpassword like 'md5%', rolpassword like 'SCRAM-SHA-256$%' from pg_authid"
                + " where rolname in ('" + md5User + "', '" + scramUser + "') order by rolname"))
                .containsExactly(List.of("t", "f"), List.of("f", "t"));
        assertThat(select1(pg, md5User, "md5 secret")).isEqualTo(1);
        assertThat(select1(pg, scramUser, "scram secret")).isEqualTo(1);
    }

    @Test
    void wrongPasswordIsRefusedWith28P01() {
        PgCluster pg = PgCluster.shared();
        String md5User = PgCluster.uniqueName("md5bad");
        String scramUser = PgCluster.uniqueName("scrambad");
        pg.createUser(md5User, "right", Encryption.MD5);
        pg.createUser(scramUser, "right", Encryption.SCRAM);

        for (String user : List.of(md5User, scramUser)) {
            assertThatThrownBy(() -> pg.connect("postgres", user, "wrong").close())
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
        }
    }

    @Test
    void sharedClusterLogsConnectionsAndOwnsItsDirectories() throws SQLException {
        PgCluster pg = PgCluster.shared();
        assertThat(PgCluster.shared()).isSameAs(pg);
        String user = PgCluster.uniqueName("logged");
        pg.createUser(user, "pw", Encryption.SCRAM);
        select1(pg, user, "pw");

        Await.until(java.time.Duration.ofSeconds(10),
                () -> pg.logText().contains("connection authorized: user=" + user),
                "connection of " + user + " in the server log");
        assertThat(pg.query("show max_connections")).containsExactly(List.of("400"));
        assertThat(Files.exists(pg.socketDir().resolve(".s.PGSQL." + pg.port()))).isTrue();
        assertThat(pg.jdbcUrl("db1")).isEqualTo("jdbc:postgresql://127.0.0.1:" + pg.port() + "/db1");
    }

    @Test
    void ownClusterTakesBuilderOptionsAndRemovesItsDirOnClose() throws SQLException {
        PgCluster pg = PgCluster.builder()
                .config("max_connections = 50")
                .passwordEncryption(Encryption.SCRAM)
                .start();
        try (pg) {
            assertThat(pg.isShared()).isFalse();
            assertThat(pg.query("show password_encryption")).containsExactly(List.of("scram-sha-256"));
            assertThat(pg.query("show max_connections")).containsExactly(List.of("50"));
            pg.createUser("owner1", "pw", Encryption.MD5);
            pg.createDatabase("db1", "owner1");
            try (Connection c = pg.connect("db1", "owner1", "pw");
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("select current_database(), current_user")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("db1");
                assertThat(rs.getString(2)).isEqualTo("owner1");
            }
        }
        assertThat(Files.exists(pg.dataDir())).isFalse();
        assertThatThrownBy(() -> pg.connect("postgres", "postgres", null).close()).isInstanceOf(SQLException.class);
    }

    static int select1(PgCluster pg, String user, String password) throws SQLException {
        try (Connection c = pg.connect("postgres", user, password);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("select 1")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt(1);
        }
    }
}
