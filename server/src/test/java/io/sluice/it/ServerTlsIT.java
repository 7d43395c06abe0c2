package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.tls.TestPki;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 13, acceptance 2: PostgreSQL with ssl = on and an hba that accepts TCP logins only
 * over hostssl; Sluice with server_tls_sslmode = verify-full pools encrypted backends
 * (pg_stat_ssl says so), verify-full checks the host name, verify-ca only the CA, and an
 * untrusted CA or a server that refuses SSL ends the login with a clean error.
 */
class ServerTlsIT {
    @TempDir
    static Path dir;
    static TestPki pki;
    static PgCluster pg;
    static String db;
    static String user;
    static String userlist;

    @BeforeAll
    static void start() {
        pki = TestPki.create(dir, "server-side");
        // the certificate names "localhost" only: 127.0.0.1 is not in it, for the host name checks
        Instant now = Instant.now();
        TestPki.Issued cert = pki.issue("postgres", TestPki.KeyForm.RSA_PKCS1, "localhost",
                now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)), List.of("DNS:localhost"),
                KeyPurposeId.id_kp_serverAuth);
        pg = PgCluster.builder()
                .dataFile("server.crt", cert.cert())
                .dataFile("server.key", cert.key())
                .config("ssl = on", "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'",
                        "log_connections = on")
                .hba("local all all trust\n"
                        + "hostssl all " + PgCluster.SUPERUSER + " 127.0.0.1/32 trust\n"
                        + "hostssl all all 127.0.0.1/32 md5\n")
                .start();
        db = PgCluster.uniqueName("stlsdb");
        user = PgCluster.uniqueName("stlsu");
        pg.createUser(user, "pw", Encryption.MD5);
        pg.createDatabase(db, user);
        userlist = "\"" + user + "\" \"pw\"\n";
    }

    @AfterAll
    static void stop() {
        pg.close();
    }

    static SluiceFixture sluice(String host, String serverTls) throws Exception {
        return SluiceFixture.start(pg, db + " = host=" + host + " port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 4\n" + serverTls, userlist);
    }

    static Properties noNamedStatements() {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "0");
        return p;
    }

    static Connection client(SluiceFixture s) throws SQLException {
        return Jdbc.connect("127.0.0.1", s.port, db, user, "pw");
    }

    @Test
    void verifyFullPoolsOnlyEncryptedBackends() throws Exception {
        try (SluiceFixture s = sluice("localhost", "server_tls_sslmode = verify-full\nserver_tls_ca_file = "
                + pki.caFile() + "\n")) {
            List<Connection> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Connection c = client(s);
                    c.setAutoCommit(false); // each holds its server: four backends
                    clients.add(c);
                    assertThat(ClientTlsIT.one(c, "select ssl from pg_stat_ssl where pid = pg_backend_pid()"))
                            .isEqualTo("t");
                }
                List<List<String>> backends = pg.query("select s.ssl, s.version from pg_stat_ssl s "
                        + "join pg_stat_activity a using (pid) where a.usename = '" + user + "'");
                assertThat(backends).hasSize(4).allSatisfy(row -> {
                    assertThat(row.get(0)).isEqualTo("t");
                    assertThat(row.get(1)).isEqualTo("TLSv1.3");
                });
                ProcessResult servers = ClientTlsIT.console(s, "show servers");
                assertThat(servers.stdout().lines().filter(l -> l.contains("|" + db + "|")
                        && l.contains("|TLSv1.3/TLS_AES_")).count()).as(servers.stdout()).isEqualTo(4);
            } finally {
                for (Connection c : clients) {
                    c.close();
                }
            }
        }
    }

    /** close_needed of each of this database's servers in SHOW SERVERS (column 14 of PgBouncer's 21). */
    static List<String> closeNeeded(SluiceFixture s) {
        ProcessResult r = ClientTlsIT.console(s, "show servers");
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout().lines().filter(l -> l.contains("|" + db + "|")).map(l -> l.split("\\|", -1)[13]).toList();
    }

    @Test
    void changedServerTlsSettingsRecycleServersWhileAReloadWithoutChangesDoesNot() throws Exception {
        try (SluiceFixture s = sluice("localhost", "server_tls_sslmode = verify-full\nserver_tls_ca_file = "
                + pki.caFile() + "\n");
             // no named statements: in transaction mode the next transaction may get another server
             Connection c = Jdbc.connect("127.0.0.1", s.port, db, user, "pw", noNamedStatements())) {
            c.setAutoCommit(false);
            assertThat(ClientTlsIT.one(c, "select 1")).isEqualTo("1"); // holds its server until commit
            assertThat(ClientTlsIT.console(s, "reload").exitCode()).isZero();
            assertThat(closeNeeded(s)).containsExactly("0");
            assertThat(ClientTlsIT.console(s, "set server_tls_sslmode = 'require'").exitCode()).isZero();
            assertThat(closeNeeded(s)).containsExactly("1");
            c.commit(); // released: the old server closes, the next query gets a new one
            Await.until(Duration.ofSeconds(10), () -> closeNeeded(s).stream().noneMatch("1"::equals),
                    "the recycled server closed");
            assertThat(ClientTlsIT.one(c, "select ssl from pg_stat_ssl where pid = pg_backend_pid()")).isEqualTo("t");
            c.commit();
        }
    }

    @Test
    void thePlainConnectionThisHbaRefusesIsRefused() throws Exception {
        try (SluiceFixture s = sluice("localhost", "server_tls_sslmode = disable\n")) {
            assertThatThrownBy(() -> client(s)).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getMessage()).contains("no pg_hba.conf entry").contains("no encryption"));
        }
    }

    @Test
    void verifyFullChecksTheHostNameAndVerifyCaDoesNot() throws Exception {
        String ca = "server_tls_ca_file = " + pki.caFile() + "\n";
        try (SluiceFixture s = sluice("127.0.0.1", "server_tls_sslmode = verify-full\n" + ca)) {
            assertThatThrownBy(() -> client(s)).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getMessage()).contains("TLS handshake error"));
            // the pooler survives it: the console still answers
            assertThat(ClientTlsIT.console(s, "show version").exitCode()).isZero();
        }
        try (SluiceFixture s = sluice("127.0.0.1", "server_tls_sslmode = verify-ca\n" + ca);
             Connection c = client(s)) {
            assertThat(ClientTlsIT.one(c, "select ssl from pg_stat_ssl where pid = pg_backend_pid()")).isEqualTo("t");
        }
    }

    @Test
    void untrustedCaEndsTheLoginWithACleanError() throws Exception {
        TestPki stranger = TestPki.create(dir, "stranger");
        try (SluiceFixture s = sluice("localhost", "server_tls_sslmode = verify-ca\nserver_tls_ca_file = "
                + stranger.caFile() + "\n")) {
            assertThatThrownBy(() -> client(s)).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getMessage()).contains("TLS handshake error"));
        }
        // require encrypts without checking the certificate at all
        try (SluiceFixture s = sluice("127.0.0.1", "server_tls_sslmode = require\n"); Connection c = client(s);
             Statement st = c.createStatement()) {
            assertThat(ClientTlsIT.one(c, "select ssl from pg_stat_ssl where pid = pg_backend_pid()")).isEqualTo("t");
        }
    }

    @Test
    void requireAgainstAServerWithoutSslIsRefusedAndPreferGoesPlain() throws Exception {
        PgCluster plain = PgCluster.shared();
        String pdb = PgCluster.uniqueName("plaindb");
        String puser = PgCluster.uniqueName("plainu");
        plain.createUser(puser, "pw", Encryption.MD5);
        plain.createDatabase(pdb, puser);
        String list = "\"" + puser + "\" \"pw\"\n";
        try (SluiceFixture s = SluiceFixture.start(plain, pdb + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\nserver_tls_sslmode = require\n", list)) {
            assertThatThrownBy(() -> Jdbc.connect("127.0.0.1", s.port, pdb, puser, "pw"))
                    .isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getMessage()).contains("server refused SSL"));
        }
        try (SluiceFixture s = SluiceFixture.start(plain, pdb + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\n", list); // server_tls_sslmode defaults to prefer, as PgBouncer >= 1.20
             Connection c = Jdbc.connect("127.0.0.1", s.port, pdb, puser, "pw")) {
            assertThat(ClientTlsIT.one(c, "select ssl from pg_stat_ssl where pid = pg_backend_pid()")).isEqualTo("f");
        }
        ProcessResult ok = ProcessRunner.psql("127.0.0.1", plain.port(), pdb, puser, "pw", "select 1");
        assertThat(ok.exitCode()).as(ok.describe()).isZero();
    }
}
