package io.sluice.it;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.Userlist;
import io.sluice.tls.TestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sluice's own SCRAM logins to PostgreSQL over TLS use SCRAM-SHA-256-PLUS when PostgreSQL offers
 * it, with a password and with pass-through keys alike. Shown by a man in the middle holding a
 * certificate of the same CA, so that even server_tls_sslmode = verify-ca lets it in: the md5
 * login it relays goes through, the SCRAM ones are refused by PostgreSQL itself ("SCRAM channel
 * binding check failed", 28000), because Sluice bound them to the certificate it was shown.
 */
class ServerChannelBindingIT {
    @TempDir
    static Path dir;
    static TestPki pki;
    static PgCluster pg;
    static String db;
    static String scramUser;
    static String passUser;
    static String md5User;
    static String userlist;
    static TlsInterceptor mitm;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir, "server-binding");
        TestPki.Issued cert = pki.server("postgres", TestPki.KeyForm.RSA_PKCS8);
        scramUser = PgCluster.uniqueName("cbsu");
        passUser = PgCluster.uniqueName("cbpu");
        md5User = PgCluster.uniqueName("cbmu");
        pg = PgCluster.builder()
                .dataFile("server.crt", cert.cert())
                .dataFile("server.key", cert.key())
                .config("ssl = on", "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'")
                .hba("local all all trust\n"
                        + "hostssl all " + PgCluster.SUPERUSER + " 127.0.0.1/32 trust\n"
                        + "hostssl all " + md5User + " 127.0.0.1/32 md5\n"
                        + "hostssl all all 127.0.0.1/32 scram-sha-256\n")
                .start();
        db = PgCluster.uniqueName("cbsdb");
        pg.createUser(scramUser, "pw", Encryption.SCRAM);
        pg.createUser(passUser, "pw", Encryption.SCRAM);
        pg.createUser(md5User, "pw", Encryption.MD5);
        pg.createDatabase(db, PgCluster.SUPERUSER);
        pg.exec("grant all on database " + db + " to " + scramUser + ", " + passUser + ", " + md5User);
        String passSecret = pg.query("select rolpassword from pg_authid where rolname = '" + passUser + "'")
                .get(0).get(0);
        // a password Sluice computes SCRAM from; a SCRAM secret it passes the client's keys through with
        userlist = Userlist.entry(scramUser, "pw") + "\n" + Userlist.entry(passUser, passSecret) + "\n"
                + Userlist.entry(md5User, "pw") + "\n";
        TestPki.Issued fake = pki.server("mitm", TestPki.KeyForm.EC_SEC1);
        SSLContext presented = TlsClients.context(pki.caFile(), fake.cert(), fake.key());
        mitm = new TlsInterceptor(pg.port(), presented, TlsClients.context(pki.caFile(), null, null));
    }

    @AfterAll
    static void stop() throws Exception {
        mitm.close();
        pg.close();
    }

    static SluiceFixture sluice(int port) throws Exception {
        return SluiceFixture.start(pg, db + " = host=127.0.0.1 port=" + port,
                "auth_type = scram-sha-256\nserver_tls_sslmode = verify-ca\nserver_tls_ca_file = " + pki.caFile() + "\n",
                userlist);
    }

    static String login(SluiceFixture s, String user) throws Exception {
        try (Connection c = Jdbc.connect("127.0.0.1", s.port, db, user, "pw")) {
            return ClientTlsIT.one(c, "select current_user || ' ' || ssl from pg_stat_ssl where pid = pg_backend_pid()");
        }
    }

    @Test
    void directToPostgresEveryLoginWorksEncrypted() throws Exception {
        try (SluiceFixture s = sluice(pg.port())) {
            assertThat(login(s, scramUser)).isEqualTo(scramUser + " true");
            assertThat(login(s, passUser)).isEqualTo(passUser + " true");
            assertThat(login(s, md5User)).isEqualTo(md5User + " true");
            // psql's SCRAM through pass-through too
            ProcessResult r = ProcessRunner.psql("127.0.0.1", s.port, db, passUser, "pw", "select current_user");
            assertThat(r.exitCode()).as(r.describe()).isZero();
        }
    }

    @Test
    void throughAManInTheMiddlePostgresRefusesTheBoundScramLogins() throws Exception {
        try (SluiceFixture s = sluice(mitm.port)) {
            // the relay works, and verify-ca accepted its certificate: md5 has nothing to bind
            assertThat(login(s, md5User)).isEqualTo(md5User + " true");
            for (String user : new String[] {scramUser, passUser}) {
                assertThatThrownBy(() -> login(s, user)).as(user).isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("28000");
                    assertThat(e.getMessage()).contains("SCRAM channel binding check failed");
                });
            }
        }
        assertThat(pg.logText()).contains("FATAL:  SCRAM channel binding check failed");
    }
}
