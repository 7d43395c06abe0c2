package io.sluice.it;

import io.sluice.auth.NonceSource;
import io.sluice.auth.ScramClientExchange;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.Userlist;
import io.sluice.tls.ChannelBinding;
import io.sluice.tls.TestPki;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13: SCRAM-SHA-256-PLUS for clients of Sluice. Over TLS, psql and pgjdbc with
 * {@code channel_binding=require} (verify-full against the test's CA) log in, through SCRAM
 * pass-through to PostgreSQL; over plain TCP only SCRAM-SHA-256 is offered (libpq refuses
 * channel_binding=require without TLS by itself). Acceptance 5's wrong channel-binding flag,
 * driven by hand: each gets PostgreSQL's FATAL ErrorResponse (SQLSTATE, message, detail) and its
 * connection closed, while a channel-bound pgjdbc client logged in beforehand goes on.
 */
class ScramChannelBindingIT {
    @TempDir
    static Path dir;
    static TestPki pki;
    static SluiceFixture sluice;
    static String db;
    static String user;
    static Connection bystander;

    @BeforeAll
    static void start() throws Exception {
        PgCluster pg = PgCluster.shared();
        db = PgCluster.uniqueName("cbdb");
        user = PgCluster.uniqueName("cbu");
        pg.createUser(user, "pw", Encryption.SCRAM);
        pg.createDatabase(db, user);
        String secret = pg.query("select rolpassword from pg_authid where rolname = '" + user + "'").get(0).get(0);
        pki = TestPki.create(dir, "binding");
        TestPki.Issued server = pki.server("srv", TestPki.KeyForm.RSA_PKCS8);
        // prefer: TLS when asked, plain TCP too, so both sides of the offer can be seen
        sluice = SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = scram-sha-256\nserver_tls_sslmode = disable\nclient_tls_sslmode = prefer\n"
                        + "client_tls_key_file = " + server.key() + "\nclient_tls_cert_file = " + server.cert() + "\n",
                Userlist.entry(user, secret) + "\n");
        bystander = Jdbc.connect("127.0.0.1", sluice.port, db, user, "pw", jdbc("require"));
        assertThat(ClientTlsIT.one(bystander, "select 'ready'")).isEqualTo("ready");
    }

    @AfterAll
    static void stop() throws Exception {
        bystander.close();
        sluice.close();
    }

    @AfterEach
    void bystanderIsUnaffected() throws Exception {
        assertThat(ClientTlsIT.one(bystander, "select 'still here'")).isEqualTo("still here");
    }

    static Properties jdbc(String channelBinding) {
        Properties p = new Properties();
        p.setProperty("sslmode", "verify-full");
        p.setProperty("sslrootcert", pki.caFile().toString());
        p.setProperty("sslcert", dir.resolve("none.crt").toString());
        p.setProperty("channelBinding", channelBinding);
        return p;
    }

    @Test
    void psqlWithChannelBindingRequireOverVerifyFullLogsIn() {
        ProcessResult r = TlsClients.psql(sluice.port, db, user, "pw", "verify-full", pki.caFile(), null, null, dir,
                "select current_user").env("PGCHANNELBINDING", "require").run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        assertThat(r.out()).isEqualTo(user);
    }

    @Test
    void pgjdbcWithChannelBindingRequireLogsIn() throws Exception {
        try (Connection c = Jdbc.connect("127.0.0.1", sluice.port, db, user, "pw", jdbc("require"))) {
            assertThat(ClientTlsIT.one(c, "select ssl from pg_stat_ssl where pid = pg_backend_pid()"))
                    .as("Sluice to PostgreSQL is plain here; the binding is on the client's side").isEqualTo("f");
            assertThat(ClientTlsIT.one(c, "select current_user")).isEqualTo(user);
        }
    }

    @Test
    void overPlainTcpOnlyScramSha256IsOfferedAndLibpqRefusesChannelBindingRequire() throws Exception {
        ProcessResult r = TlsClients.psql(sluice.port, db, user, "pw", "disable", null, null, null, dir,
                "select 1").env("PGCHANNELBINDING", "require").run();
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.stderr()).contains("channel binding required, but SSL not in use"); // libpq's own check
        try (RawClient plain = new RawClient(sluice.port)) {
            assertThat(mechanisms(plain)).containsExactly("SCRAM-SHA-256");
        }
        try (RawClient tls = tlsClient()) {
            assertThat(mechanisms(tls)).containsExactly("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256");
        }
    }

    @Test
    void yWhilePlusIsOfferedIsADowngradeRefusedWith28000() throws Exception {
        try (RawClient c = tlsClient()) {
            mechanisms(c);
            c.send(saslInitial("SCRAM-SHA-256", "y,,n=,r=abcdef"));
            assertFatal(c, "28000", "SCRAM channel binding negotiation error",
                    "The client supports SCRAM channel binding but thinks the server does not.  "
                            + "However, this server does support channel binding.");
        }
    }

    @Test
    void pOverPlainTcpIsRefusedWith08P01() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            mechanisms(c);
            c.send(saslInitial("SCRAM-SHA-256", "p=tls-server-end-point,,n=,r=abcdef"));
            assertFatal(c, "08P01", "malformed SCRAM message", "The client selected SCRAM-SHA-256 without channel "
                    + "binding, but the SCRAM message includes channel binding data.");
        }
    }

    @Test
    void plusOverPlainTcpIsAnInvalidMechanismInPgBouncersAndPostgresWords() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            mechanisms(c);
            c.send(saslInitial("SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=abcdef"));
            assertFatal(c, "08P01", "client selected an invalid SASL authentication mechanism", null);
        }
    }

    @Test
    void plusWithAnotherBindingTypeIsRefusedWith08P01() throws Exception {
        try (RawClient c = tlsClient()) {
            mechanisms(c);
            c.send(saslInitial("SCRAM-SHA-256-PLUS", "p=tls-unique,,n=,r=abcdef"));
            assertFatal(c, "08P01", "unsupported SCRAM channel-binding type \"tls-unique\"", null);
        }
    }

    @Test
    void bindingDataOfAnotherCertificateFailsTheCheckWith28000() throws Exception {
        X509Certificate other = pki.server("mitm", TestPki.KeyForm.EC_SEC1).certificate();
        try (RawClient c = tlsClient()) {
            RawClient.Message answer = scramLogin(c, ChannelBinding.tlsServerEndPoint(other));
            assertFatal(c, answer, "28000", "SCRAM channel binding check failed", null);
        }
    }

    @Test
    void sluicesOwnBindingClientLogsInWithTheServedCertificate() throws Exception {
        try (SSLSocket s = TlsClients.afterSslRequest(sluice.port, TlsClients.context(pki.caFile(), null, null));
             RawClient c = new RawClient(s)) {
            X509Certificate served = (X509Certificate) s.getSession().getPeerCertificates()[0];
            RawClient.Message answer = scramLogin(c, ChannelBinding.tlsServerEndPoint(served));
            assertThat(answer.type()).as("AuthenticationSASLFinal, checked").isEqualTo('R');
            assertThat(c.readUntilReadyOrError()).isNull();
            assertThat(c.queryOne("select current_user")).isEqualTo(user);
        }
    }

    static RawClient tlsClient() throws Exception {
        SSLContext ctx = TlsClients.context(pki.caFile(), null, null);
        return new RawClient(TlsClients.afterSslRequest(sluice.port, ctx));
    }

    /** Sends the startup packet and returns the mechanisms of the AuthenticationSASL that answers it. */
    static List<String> mechanisms(RawClient c) throws IOException {
        c.send(RawClient.startup(Map.of("user", user, "database", db)));
        ByteBuffer b = expectAuth(c, 10);
        String list = new String(b.array(), b.position(), b.remaining(), StandardCharsets.UTF_8);
        return Arrays.stream(list.split("\0")).filter(m -> !m.isEmpty()).toList();
    }

    /**
     * A SCRAM-SHA-256-PLUS login with Sluice's own client exchange bound to {@code binding}, up to
     * the answer to client-final: AuthenticationSASLFinal (its signature checked) or ErrorResponse.
     */
    static RawClient.Message scramLogin(RawClient c, byte[] binding) throws IOException {
        mechanisms(c);
        ScramClientExchange scram = ScramClientExchange.withPassword("pw", NonceSource.secureRandom())
                .bindChannel(binding);
        c.send(saslInitial(scram.mechanism(), scram.clientFirst()));
        ByteBuffer first = expectAuth(c, 11);
        String fin = scram.clientFinal(new String(first.array(), first.position(), first.remaining(),
                StandardCharsets.UTF_8));
        c.send(password(fin.getBytes(StandardCharsets.UTF_8)));
        RawClient.Message m = c.readMessage();
        if (m.type() == 'R') {
            assertThat(ByteBuffer.wrap(m.body()).getInt()).isEqualTo(12);
            scram.verifyServerFinal(new String(m.body(), 4, m.body().length - 4, StandardCharsets.UTF_8));
        }
        return m;
    }

    static ByteBuffer expectAuth(RawClient c, int code) throws IOException {
        RawClient.Message m = c.readMessage();
        assertThat(m.type()).as("message %s: %s", m.type(), m.type() == 'E' ? RawClient.fields(m.body()) : "")
                .isEqualTo('R');
        ByteBuffer b = ByteBuffer.wrap(m.body());
        assertThat(b.getInt()).isEqualTo(code);
        return b;
    }

    /** The next message is PostgreSQL's FATAL with these fields, and then the connection closes. */
    static void assertFatal(RawClient c, String sqlState, String message, String detail) throws IOException {
        assertFatal(c, c.readMessage(), sqlState, message, detail);
    }

    static void assertFatal(RawClient c, RawClient.Message m, String sqlState, String message, String detail)
            throws IOException {
        assertThat(m.type()).isEqualTo('E');
        Map<Character, String> f = RawClient.fields(m.body());
        assertThat(f).containsEntry('S', "FATAL").containsEntry('C', sqlState).containsEntry('M', message);
        if (detail == null) {
            assertThat(f).doesNotContainKey('D');
        } else {
            assertThat(f).containsEntry('D', detail);
        }
        assertThat(c.closedByServer()).isTrue();
    }

    static byte[] saslInitial(String mechanism, String data) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes((mechanism + "\0").getBytes(StandardCharsets.UTF_8));
        byte[] d = data.getBytes(StandardCharsets.UTF_8);
        body.writeBytes(ByteBuffer.allocate(4).putInt(d.length).array());
        body.writeBytes(d);
        return password(body.toByteArray());
    }

    /** A 'p' message (PasswordMessage, SASLInitialResponse, SASLResponse) around {@code body}. */
    static byte[] password(byte[] body) {
        return ByteBuffer.allocate(5 + body.length).put((byte) 'p').putInt(4 + body.length).put(body).array();
    }
}
