package io.sluice.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PgBouncer's setup checks (sbuf_tls_setup), in its words, and a working context from PEM files. */
class TlsContextsTest {
    @TempDir
    Path dir;

    static TlsSettings client(SslMode mode, String key, String cert, String ca) {
        return new TlsSettings("client_tls", mode, key, cert, ca, "secure", "default", "", "auto", "auto");
    }

    @Test
    void pgbouncersSetupRules() {
        assertThatThrownBy(() -> TlsContexts.client(client(SslMode.REQUIRE, "", "c.pem", ""), false))
                .hasMessage("To allow TLS connections from clients, client_tls_key_file and client_tls_cert_file must be set.");
        assertThatThrownBy(() -> TlsContexts.client(client(SslMode.VERIFY_FULL, "k", "c", ""), false))
                .hasMessage("client_tls_sslmode requires client_tls_ca_file");
        assertThatThrownBy(() -> TlsContexts.client(client(SslMode.REQUIRE, "k", "c", "ca"), true))
                .hasMessage("auth_type=cert requires client_tls_sslmode=SSLMODE_VERIFY_FULL");
        assertThatThrownBy(() -> TlsContexts.client(client(SslMode.VERIFY_FULL, "k", "c", ""), true))
                .hasMessage("auth_type=cert requires client_tls_ca_file");
        assertThatThrownBy(() -> TlsContexts.client(client(SslMode.DISABLE, "", "", ""), true))
                .as("PgBouncer checks auth_type = cert even with TLS off")
                .hasMessage("auth_type=cert requires client_tls_sslmode=SSLMODE_VERIFY_FULL");
    }

    @Test
    void disabledSidesNeedNoFiles() throws Exception {
        assertThat(TlsContexts.client(client(SslMode.DISABLE, "", "", ""), false).enabled()).isFalse();
        TlsSettings server = new TlsSettings("server_tls", SslMode.DISABLE, "", "", "", "secure", "default", "",
                "auto", "none");
        assertThat(TlsContexts.server(server).appliesTo(false)).isFalse();
    }

    @Test
    void contextsFromPemFilesOnTheProviderInUse() throws Exception {
        TestPki pki = TestPki.create(dir, "ctx");
        TestPki.Issued s = pki.server("srv", TestPki.KeyForm.EC_SEC1);
        ClientTls c = TlsContexts.client(client(SslMode.VERIFY_CA, s.key().toString(), s.cert().toString(),
                pki.caFile().toString()), false);
        assertThat(c.enabled()).isTrue();
        assertThat(c.acceptsSslRequest(false)).isTrue();
        assertThat(c.acceptsSslRequest(true)).as("never over the unix socket").isFalse();
        assertThat(c.requiresTls(false)).isTrue();
        assertThat(c.requiresTls(true)).isFalse();
        assertThat(TlsContexts.provider().name()).as("netty-tcnative ships for linux-x86_64").isEqualTo("BoringSSL");
        TestPki.Issued other = pki.server("other", TestPki.KeyForm.RSA_PKCS1);
        assertThatThrownBy(() -> TlsContexts.client(client(SslMode.REQUIRE, other.key().toString(),
                s.cert().toString(), ""), false))
                .hasMessage("invalid client_tls_key_file: private key does not match client_tls_cert_file");
    }
}
