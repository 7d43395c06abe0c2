package io.sluice.it;

import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.tls.TestPki;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 13, acceptance 5 (TLS part): each bad TLS input ends only its own connection, while a
 * TLS client logged in beforehand keeps working and no server connection is used up. What can
 * still be said in the protocol is said as a PostgreSQL ErrorResponse (SSLRequest followed by
 * plaintext); a failed handshake ends with a TLS alert, as with PostgreSQL itself.
 */
class TlsBadInputIT {
    @TempDir
    static Path dir;
    static TestPki pki;
    static SluiceFixture sluice;
    static String db;
    static String user;
    static SSLContext good;
    static SSLSocket bystanderSocket;
    static RawClient bystander;

    @BeforeAll
    static void start() throws Exception {
        PgCluster pg = PgCluster.shared();
        db = PgCluster.uniqueName("tlsbad");
        user = PgCluster.uniqueName("tlsbadu");
        pg.createUser(user, "pw", Encryption.MD5);
        pg.createDatabase(db, user);
        pki = TestPki.create(dir, "bad-input");
        TestPki.Issued server = pki.server("srv", TestPki.KeyForm.RSA_PKCS8);
        TestPki.Issued client = pki.client("client", user, TestPki.KeyForm.EC_SEC1);
        sluice = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\nserver_tls_sslmode = disable\nclient_login_timeout = 3\n"
                        + "client_tls_sslmode = verify-ca\nclient_tls_ca_file = " + pki.caFile() + "\n"
                        + "client_tls_key_file = " + server.key() + "\nclient_tls_cert_file = " + server.cert() + "\n",
                "\"" + user + "\" \"pw\"\n");
        good = TlsClients.context(pki.caFile(), client.cert(), client.key());
        bystanderSocket = TlsClients.afterSslRequest(sluice.port, good);
        bystander = TlsClients.login(bystanderSocket, db, user);
        assertThat(bystander.queryOne("select 'ready'")).isEqualTo("ready");
    }

    @AfterAll
    static void stop() throws Exception {
        bystander.close();
        sluice.close();
    }

    @AfterEach
    void bystanderIsUnaffected() throws Exception {
        assertThat(bystander.queryOne("select 'still here'")).isEqualTo("still here");
        ProcessResult servers = ClientTlsIT.console(sluice, "show servers");
        assertThat(servers.stdout().lines().filter(l -> l.contains("|" + db + "|")).count())
                .as("only the bystander's server: %s", servers.stdout()).isEqualTo(1);
    }

    @Test
    void sslRequestWithPlaintextBehindItIsRefusedInPlaintext() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            byte[] startup = RawClient.startup(Map.of("user", user, "database", db));
            byte[] both = Arrays.copyOf(TlsClients.SSL_REQUEST, 8 + startup.length);
            System.arraycopy(startup, 0, both, 8, startup.length);
            c.send(both); // sent before any answer could have been seen: PostgreSQL's CVE-2021-23214 case
            RawClient.Message m = c.readMessage();
            assertThat(m.type()).isEqualTo('E');
            Map<Character, String> f = RawClient.fields(m.body());
            assertThat(f.get('C')).isEqualTo("08P01");
            assertThat(f.get('M')).isEqualTo("received unencrypted data after SSL request");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void plaintextAfterTheSAnswerGetsAReadableError() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            c.send(TlsClients.SSL_REQUEST);
            assertThat(c.socket.getInputStream().read()).isEqualTo('S');
            c.send(RawClient.startup(Map.of("user", user, "database", db)));
            RawClient.Message m = c.readMessage();
            assertThat(m.type()).isEqualTo('E');
            assertThat(RawClient.fields(m.body())).containsEntry('C', "08P01")
                    .containsEntry('M', "expected a TLS handshake after the SSLRequest was accepted");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void clientCertificateFromAnUntrustedCaIsRefused() throws Exception {
        TestPki stranger = TestPki.create(dir, "stranger");
        TestPki.Issued foreign = stranger.client("foreign", user, TestPki.KeyForm.RSA_PKCS1);
        SSLContext ctx = TlsClients.context(pki.caFile(), foreign.cert(), foreign.key());
        assertHandshakeOrLoginFails(() -> TlsClients.login(TlsClients.afterSslRequest(sluice.port, ctx), db, user));
    }

    @Test
    void expiredClientCertificateIsRefused() throws Exception {
        Instant now = Instant.now();
        TestPki.Issued expired = pki.issue("expired", TestPki.KeyForm.RSA_PKCS8, user,
                now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(1)), List.of(), KeyPurposeId.id_kp_clientAuth);
        SSLContext ctx = TlsClients.context(pki.caFile(), expired.cert(), expired.key());
        assertHandshakeOrLoginFails(() -> TlsClients.login(TlsClients.afterSslRequest(sluice.port, ctx), db, user));
    }

    @Test
    void missingClientCertificateIsRefusedUnderVerifyCa() throws Exception {
        SSLContext ctx = TlsClients.context(pki.caFile(), null, null);
        assertHandshakeOrLoginFails(() -> TlsClients.login(TlsClients.afterSslRequest(sluice.port, ctx), db, user));
    }

    @Test
    void wrongAlpnGetsNoApplicationProtocolBothWays() {
        assertThatThrownBy(() -> TlsClients.direct(sluice.port, good, "http/1.1"))
                .isInstanceOf(SSLException.class).hasMessageContaining("no_application_protocol");
        assertThatThrownBy(() -> TlsClients.afterSslRequest(sluice.port, good, "h2", "http/1.1"))
                .isInstanceOf(SSLException.class).hasMessageContaining("no_application_protocol");
    }

    @Test
    void truncatedClientHelloEndsOnlyThatConnection() throws Exception {
        byte[] hello = clientHello();
        byte[] part = Arrays.copyOf(hello, hello.length / 2);
        // direct TLS, then the client gives up: closed at once
        try (RawClient c = new RawClient(sluice.port)) {
            c.send(part);
            c.socket.shutdownOutput();
            assertThat(c.closedByServer()).isTrue();
        }
        // after 'S', and the client stalls: client_login_timeout (3 s here) ends it
        try (RawClient c = new RawClient(sluice.port)) {
            c.send(TlsClients.SSL_REQUEST);
            assertThat(c.socket.getInputStream().read()).isEqualTo('S');
            c.send(part);
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void garbageThatLooksLikeATlsRecordIsRefused() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            c.send(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5, 6, 7, 8});
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void sslRequestInsideTlsEndsTheConnection() throws Exception {
        try (SSLSocket s = TlsClients.afterSslRequest(sluice.port, good); RawClient c = new RawClient(s)) {
            c.send(TlsClients.SSL_REQUEST);
            assertThat(c.closedByServer()).isTrue();
        }
    }

    interface Attempt {
        Object run() throws Exception;
    }

    /** TLS 1.3 clients may learn of a refused certificate only at their first read, after the handshake. */
    static void assertHandshakeOrLoginFails(Attempt attempt) {
        assertThatThrownBy(() -> {
            Object o = attempt.run();
            if (o instanceof AutoCloseable c) {
                c.close();
            }
        }).isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(e).isNotInstanceOf(java.net.SocketTimeoutException.class));
    }

    /** A real ClientHello record, as the JDK's TLS client sends it. */
    static byte[] clientHello() throws Exception {
        SSLEngine e = good.createSSLEngine("127.0.0.1", sluice.port);
        e.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
        e.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        assertThat(hello[0]).isEqualTo((byte) 0x16);
        return hello;
    }
}
