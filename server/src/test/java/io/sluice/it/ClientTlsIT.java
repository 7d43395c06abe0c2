package io.sluice.it;

import io.sluice.runtime.FatalError;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.tls.TestPki;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 13, acceptance 1 (client side): psql with sslmode=verify-full against a certificate in
 * each PEM key form, pgjdbc with verify-full and with direct TLS, PgBouncer's sslmode rules
 * (require refuses plain TCP but not the unix socket; disable answers 'N'), the tls column, and
 * RELOAD rotating the certificate for new connections while open ones keep going.
 */
class ClientTlsIT {
    static PgCluster pg;
    static String db;
    static String user;
    static String userlist;

    @TempDir
    static Path pkiDir;
    static TestPki pki;

    @BeforeAll
    static void setUp() {
        pg = PgCluster.shared();
        db = PgCluster.uniqueName("tlsdb");
        user = PgCluster.uniqueName("tlsu");
        pg.createUser(user, "pw", Encryption.MD5);
        pg.createDatabase(db, user);
        userlist = "\"" + user + "\" \"pw\"\n";
        pki = TestPki.create(pkiDir, "client-side");
    }

    static SluiceFixture sluice(TestPki.Issued server, String mode, String extra) throws Exception {
        return SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\nserver_tls_sslmode = disable\n"
                        + "client_tls_sslmode = " + mode + "\n"
                        + "client_tls_key_file = " + server.key() + "\n"
                        + "client_tls_cert_file = " + server.cert() + "\n" + extra, userlist);
    }

    /** The console over the unix socket, where TLS is never asked for. */
    static ProcessResult console(SluiceFixture s, String sql) {
        return ProcessRunner.psql(s.dir.toString(), s.port, "pgbouncer", "pgbouncer", null, sql);
    }

    @ParameterizedTest
    @EnumSource(value = TestPki.KeyForm.class, names = {"RSA_PKCS1", "RSA_PKCS8", "EC_SEC1", "EC_PKCS8"})
    void psqlVerifyFullWithEachKeyForm(TestPki.KeyForm form) throws Exception {
        TestPki.Issued server = pki.server("srv-" + form, form);
        try (SluiceFixture s = sluice(server, "require", "")) {
            ProcessResult r = TlsClients.psql(s.port, db, user, "pw", "verify-full", pki.caFile(), null, null, pkiDir,
                    "\\conninfo", "select current_user").run();
            assertThat(r.exitCode()).as(r.describe()).isZero();
            assertThat(r.stdout()).contains("SSL connection (protocol: TLSv1.3").contains(user);
            // the certificate psql verified is the one in this key form: the JDK sees the same
            try (SSLSocket tls = TlsClients.afterSslRequest(s.port, TlsClients.context(pki.caFile(), null, null))) {
                X509Certificate served = (X509Certificate) tls.getSession().getPeerCertificates()[0];
                assertThat(served.getSerialNumber()).isEqualTo(server.certificate().getSerialNumber());
                assertThat(served.getPublicKey().getAlgorithm()).isEqualTo(form.name().startsWith("EC") ? "EC" : "RSA");
            }
        }
    }

    @Test
    void pgjdbcVerifyFullAndDirectTlsShowInShowClients() throws Exception {
        TestPki.Issued server = pki.server("srv-jdbc", TestPki.KeyForm.RSA_PKCS8);
        try (SluiceFixture s = sluice(server, "prefer", "")) {
            Properties viaRequest = jdbcTls("verify-full");
            Properties direct = jdbcTls("verify-full");
            direct.setProperty("sslNegotiation", "direct");
            try (Connection a = Jdbc.connect("127.0.0.1", s.port, db, user, "pw", viaRequest);
                 Connection b = Jdbc.connect("127.0.0.1", s.port, db, user, "pw", direct);
                 Connection plain = Jdbc.connect("127.0.0.1", s.port, db, user, "pw", jdbcTls("disable"))) {
                assertThat(one(a, "select 1")).isEqualTo("1");
                assertThat(one(b, "select 2")).isEqualTo("2");
                assertThat(one(plain, "select 3")).isEqualTo("3");
                ProcessResult r = console(s, "show clients");
                assertThat(r.exitCode()).as(r.describe()).isZero();
                // PgBouncer's tls column: protocol/cipher for TLS clients, empty for the plain one
                long tlsRows = r.stdout().lines().filter(l -> l.contains("|" + db + "|")
                        && l.matches(".*\\|TLSv1\\.3/TLS_AES_(256_GCM_SHA384|128_GCM_SHA256)\\|.*")).count();
                long plainRows = r.stdout().lines().filter(l -> l.contains("|" + db + "|") && l.contains("||")).count();
                assertThat(tlsRows).as(r.stdout()).isEqualTo(2);
                assertThat(plainRows).as(r.stdout()).isGreaterThanOrEqualTo(1);
            }
        }
    }

    @Test
    void directTlsWithAlpnPostgresqlOrNoneLogsIn() throws Exception {
        TestPki.Issued server = pki.server("srv-direct", TestPki.KeyForm.EC_SEC1);
        try (SluiceFixture s = sluice(server, "require", "")) {
            SSLContext ctx = TlsClients.context(pki.caFile(), null, null);
            try (SSLSocket withAlpn = TlsClients.direct(s.port, ctx, "postgresql");
                 RawClient c = TlsClients.login(withAlpn, db, user)) {
                assertThat(withAlpn.getApplicationProtocol()).isEqualTo("postgresql");
                assertThat(c.queryOne("select 'direct'")).isEqualTo("direct");
            }
            try (SSLSocket noAlpn = TlsClients.direct(s.port, ctx);
                 RawClient c = TlsClients.login(noAlpn, db, user)) {
                assertThat(c.queryOne("select 'no alpn'")).isEqualTo("no alpn");
            }
        }
    }

    @Test
    void requireRefusesPlainTcpButNotTheUnixSocketAndDisableAnswersN() throws Exception {
        TestPki.Issued server = pki.server("srv-req", TestPki.KeyForm.RSA_PKCS1);
        try (SluiceFixture s = sluice(server, "require", "")) {
            ProcessResult plain = TlsClients.psql(s.port, db, user, "pw", "disable", null, null, null, pkiDir,
                    "select 1").run();
            assertThat(plain.exitCode()).isNotZero();
            assertThat(plain.stderr()).contains("SSL required");
            ProcessResult unix = ProcessRunner.psql(s.dir.toString(), s.port, db, user, "pw", "select 'unix'");
            assertThat(unix.exitCode()).as(unix.describe()).isZero();
            assertThat(unix.out()).isEqualTo("unix");

            assertThat(console(s, "set client_tls_sslmode = 'disable'").exitCode()).isZero();
            ProcessResult refused = TlsClients.psql(s.port, db, user, "pw", "require", null, null, null, pkiDir,
                    "select 1").run();
            assertThat(refused.exitCode()).isNotZero();
            assertThat(refused.stderr()).contains("server does not support SSL, but SSL was required");
            ProcessResult nowPlain = TlsClients.psql(s.port, db, user, "pw", "prefer", null, null, null, pkiDir,
                    "\\conninfo").run();
            assertThat(nowPlain.exitCode()).as(nowPlain.describe()).isZero();
            assertThat(nowPlain.stdout()).doesNotContain("SSL connection");
        }
    }

    @Test
    void reloadServesARotatedCertificateToNewConnectionsWhileOpenOnesGoOn() throws Exception {
        TestPki.Issued first = pki.server("srv-rot", TestPki.KeyForm.RSA_PKCS8);
        byte[] firstKey = Files.readAllBytes(first.key());
        byte[] firstCert = Files.readAllBytes(first.cert());
        try (SluiceFixture s = sluice(first, "require", "");
             Connection open = Jdbc.connect("127.0.0.1", s.port, db, user, "pw", jdbcTls("verify-full"))) {
            assertThat(one(open, "select 1")).isEqualTo("1");
            // a new certificate at the same paths (the old files are overwritten)
            TestPki.Issued second = pki.server("srv-rot", TestPki.KeyForm.EC_PKCS8);
            assertThat(servedSerial(s)).isEqualTo(first.certificate().getSerialNumber());
            assertThat(console(s, "reload").exitCode()).isZero();
            assertThat(servedSerial(s)).isEqualTo(second.certificate().getSerialNumber());
            assertThat(one(open, "select 2")).isEqualTo("2");

            // a broken key file: RELOAD keeps the TLS setup it has, and SET says so
            Files.writeString(second.key(), "not a key\n");
            assertThat(console(s, "reload").exitCode()).isZero();
            assertThat(servedSerial(s)).isEqualTo(second.certificate().getSerialNumber());
            ProcessResult set = console(s, "set client_tls_key_file = '" + pkiDir.resolve("missing.key") + "'");
            assertThat(set.stderr() + set.stdout()).contains("TLS settings could not be applied, still using old configuration");
            assertThat(servedSerial(s)).isEqualTo(second.certificate().getSerialNumber());
            assertThat(one(open, "select 3")).isEqualTo("3");
        } finally {
            Files.write(first.key(), firstKey);
            Files.write(first.cert(), firstCert);
        }
    }

    @Test
    void startWithATlsSetupErrorFailsWithPgBouncersWords() {
        assertThatThrownBy(() -> SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "client_tls_sslmode = require\nclient_tls_cert_file = " + pkiDir.resolve("any.crt") + "\n", userlist))
                .isInstanceOfSatisfying(FatalError.class, e -> assertThat(e.errors()).containsExactly(
                        "To allow TLS connections from clients, client_tls_key_file and client_tls_cert_file must be set."))
                .hasMessage("TLS setup failed");
        TestPki.Issued enc = pki.server("srv-enc", TestPki.KeyForm.RSA_PKCS8_ENCRYPTED);
        assertThatThrownBy(() -> sluice(enc, "prefer", ""))
                .isInstanceOfSatisfying(FatalError.class, e -> assertThat(e.errors().get(0))
                        .contains("encrypted private keys are not supported"));
    }

    static java.math.BigInteger servedSerial(SluiceFixture s) throws Exception {
        try (SSLSocket tls = TlsClients.afterSslRequest(s.port, TlsClients.context(pki.caFile(), null, null))) {
            return ((X509Certificate) tls.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    static Properties jdbcTls(String sslmode) {
        Properties p = new Properties();
        p.setProperty("sslmode", sslmode);
        p.setProperty("sslrootcert", pki.caFile().toString());
        // no default client certificate from ~/.postgresql
        p.setProperty("sslcert", pkiDir.resolve("none.crt").toString());
        return p;
    }

    static String one(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
