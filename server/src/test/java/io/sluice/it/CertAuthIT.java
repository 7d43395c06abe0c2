package io.sluice.it;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.tls.TestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * auth_type = cert (issue 13): psql presenting a client certificate whose CN is the user logs
 * in without a password; another CN, no certificate, or a user missing from auth_file does not
 * ("certificate authentication failed", PgBouncer's words).
 */
class CertAuthIT {
    @TempDir
    static Path dir;
    static TestPki pki;
    static SluiceFixture sluice;
    static String db;
    static String user;
    static String other;

    @BeforeAll
    static void start() throws Exception {
        PgCluster pg = PgCluster.shared();
        db = PgCluster.uniqueName("certdb");
        user = PgCluster.uniqueName("certu");
        other = PgCluster.uniqueName("certo");
        pg.createUser(user, "pw", Encryption.MD5);
        pg.createUser(other, "pw2", Encryption.MD5);
        pg.createDatabase(db, user);
        pg.exec("grant all on database " + db + " to " + other);
        pki = TestPki.create(dir, "cert-auth");
        TestPki.Issued server = pki.server("srv", TestPki.KeyForm.EC_PKCS8);
        sluice = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = cert\nserver_tls_sslmode = disable\n"
                        + "client_tls_sslmode = verify-full\nclient_tls_ca_file = " + pki.caFile() + "\n"
                        + "client_tls_key_file = " + server.key() + "\nclient_tls_cert_file = " + server.cert() + "\n",
                // the auth_file passwords are what Sluice logs in to PostgreSQL with; clients give none
                "\"" + user + "\" \"pw\"\n\"" + other + "\" \"pw2\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    static ProcessResult psqlWith(TestPki.Issued cert, String asUser) {
        return TlsClients.psql(sluice.port, db, asUser, null, "verify-full", pki.caFile(),
                cert == null ? null : cert.cert(), cert == null ? null : cert.key(), dir, "select current_user").run();
    }

    @Test
    void certificateNamingTheUserLogsIn() {
        ProcessResult r = psqlWith(pki.client("mine", user, TestPki.KeyForm.RSA_PKCS1), user);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.out()).isEqualTo(user);
    }

    @Test
    void certificateOfAnotherUserIsRefused() {
        ProcessResult r = psqlWith(pki.client("theirs", other, TestPki.KeyForm.EC_SEC1), user);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("certificate authentication failed");
        ProcessResult ok = psqlWith(pki.client("theirs2", other, TestPki.KeyForm.EC_SEC1), other);
        assertThat(ok.exitCode()).as(ok.describe()).isZero();
        assertThat(ok.out()).isEqualTo(other);
    }

    @Test
    void userMissingFromAuthFileIsRefusedEvenWithAMatchingCertificate() {
        String stranger = "nobody_" + ProcessHandle.current().pid();
        ProcessResult r = psqlWith(pki.client("stranger", stranger, TestPki.KeyForm.RSA_PKCS8), stranger);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("certificate authentication failed");
    }

    @Test
    void noCertificateFailsTheHandshakeUnderVerifyFull() {
        ProcessResult r = psqlWith(null, user);
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).containsIgnoringCase("certificate");
    }
}
