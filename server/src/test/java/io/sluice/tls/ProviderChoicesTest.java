package io.sluice.tls;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProviderChoicesTest {
    static final List<String> CIPHERS = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA");
    static final TlsProvider BORING = new TlsProvider("BoringSSL", true,
            Set.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"), CIPHERS);
    static final TlsProvider JDK = new TlsProvider("JDK TLS", false, Set.of("TLSv1.2", "TLSv1.3"), CIPHERS);

    static TlsSettings client(String protocols, String ciphers, String tls13, String curve, String dhe) {
        return new TlsSettings("client_tls", SslMode.REQUIRE, "k", "c", "", protocols, ciphers, tls13, curve, dhe);
    }

    static TlsSettings defaults() {
        return client("secure", "default", "", "auto", "auto");
    }

    @Test
    void defaultsAreTheProvidersWithoutWarnings() throws Exception {
        ProviderChoices c = ProviderChoices.resolve(defaults(), BORING);
        assertThat(c.protocols()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(c.ciphers()).isNull();
        assertThat(c.groups()).isNull();
        assertThat(c.warnings()).isEmpty();
        assertThat(ProviderChoices.resolve(defaults(), JDK).warnings()).isEmpty();
    }

    @Test
    void protocolListsAsLibtlsParsesThem() throws Exception {
        assertThat(ProviderChoices.resolve(client("all", "default", "", "auto", "auto"), BORING).protocols())
                .containsExactly("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");
        assertThat(ProviderChoices.resolve(client("tlsv1.3", "default", "", "auto", "auto"), BORING).protocols())
                .containsExactly("TLSv1.3");
        assertThat(ProviderChoices.resolve(client("!tlsv1.0,!TLSv1.1", "default", "", "auto", "auto"), BORING)
                .protocols()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(ProviderChoices.resolve(client("tlsv1.2:tlsv1.3", "default", "", "auto", "auto"), BORING)
                .protocols()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThatThrownBy(() -> ProviderChoices.resolve(client("tlsv9", "default", "", "auto", "auto"), BORING))
                .hasMessage("invalid client_tls_protocols: tlsv9");
    }

    @Test
    void protocolsTheProviderLacksAreAOneLineWarning() throws Exception {
        ProviderChoices c = ProviderChoices.resolve(client("legacy", "default", "", "auto", "auto"), JDK);
        assertThat(c.protocols()).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(c.warnings()).containsExactly(
                "client_tls_protocols: TLSv1, TLSv1.1 not available in JDK TLS; using TLSv1.2, TLSv1.3");
        assertThatThrownBy(() -> ProviderChoices.resolve(client("tlsv1.0", "default", "", "auto", "auto"), JDK))
                .isInstanceOf(TlsSetupException.class).hasMessageContaining("invalid client_tls_protocols: tlsv1.0");
    }

    @Test
    void cipherListsInOpensslOrIanaNamesAndExpressionsThatCannotBeEvaluated() throws Exception {
        ProviderChoices named = ProviderChoices.resolve(
                client("secure", "ECDHE-RSA-AES256-GCM-SHA384:TLS_RSA_WITH_AES_128_CBC_SHA", "", "auto", "auto"), BORING);
        assertThat(named.warnings()).isEmpty();
        assertThat(named.ciphers()).containsExactly("TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
                "TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_RSA_WITH_AES_128_CBC_SHA");

        ProviderChoices expr = ProviderChoices.resolve(client("secure", "HIGH:!aNULL", "", "auto", "auto"), BORING);
        assertThat(expr.ciphers()).isNull();
        assertThat(expr.warnings()).containsExactly("client_tls_ciphers: HIGH:!aNULL cannot be used with BoringSSL "
                + "(OpenSSL cipher expressions are not evaluated); using BoringSSL's default suites instead");

        ProviderChoices mixed = ProviderChoices.resolve(
                client("secure", "ECDHE-ECDSA-AES128-GCM-SHA256:+AES", "", "auto", "auto"), BORING);
        assertThat(mixed.warnings()).singleElement().asString()
                .endsWith("using ECDHE-ECDSA-AES128-GCM-SHA256 instead");
        assertThat(ProviderChoices.resolve(client("secure", "fast", "", "auto", "auto"), BORING).ciphers()).isNull();
        assertThat(ProviderChoices.resolve(client("secure", "all", "", "auto", "auto"), BORING).ciphers())
                .contains("TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_AES_128_GCM_SHA256");
    }

    @Test
    void tls13SuitesAreFixedInBoringSslAndCcmIsMissingInTheJdk() throws Exception {
        ProviderChoices boring = ProviderChoices.resolve(
                client("secure", "default", "TLS_AES_256_GCM_SHA384", "auto", "auto"), BORING);
        assertThat(boring.ciphers()).isNull();
        assertThat(boring.warnings()).containsExactly("client_tls13_ciphers: BoringSSL's TLS 1.3 suites cannot be "
                + "configured; using TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256");
        ProviderChoices jdk = ProviderChoices.resolve(
                client("secure", "default", "TLS_AES_128_CCM_SHA256:TLS_AES_256_GCM_SHA384", "auto", "auto"), JDK);
        assertThat(jdk.ciphers()).startsWith("TLS_AES_256_GCM_SHA384").doesNotContain("TLS_AES_128_CCM_SHA256",
                "TLS_AES_128_GCM_SHA256");
        assertThat(jdk.warnings()).containsExactly(
                "client_tls13_ciphers: TLS_AES_128_CCM_SHA256 not available in JDK TLS; using TLS_AES_256_GCM_SHA384");
    }

    @Test
    void curvesAndDhParams() throws Exception {
        assertThat(ProviderChoices.resolve(client("secure", "default", "", "prime256v1", "none"), BORING).groups())
                .containsExactly("P-256");
        assertThat(ProviderChoices.resolve(client("secure", "default", "", "X25519:secp384r1", "none"), BORING)
                .groups()).containsExactly("X25519", "P-384");
        assertThatThrownBy(() -> ProviderChoices.resolve(client("secure", "default", "", "brainpool", "none"), BORING))
                .hasMessage("invalid client_tls_ecdhcurve: brainpool");
        assertThat(ProviderChoices.resolve(client("secure", "default", "", "secp384r1", "auto"), JDK).warnings())
                .singleElement().asString().startsWith("client_tls_ecdhcurve=secp384r1 cannot be set per context");
        assertThat(ProviderChoices.resolve(client("secure", "default", "", "auto", "legacy"), BORING).warnings())
                .containsExactly("client_tls_dheparams=legacy cannot be honoured: BoringSSL has no DHE suites; ECDHE only");
    }

    @Test
    void serverSideHasNoCurveOrDhKeys() throws Exception {
        TlsSettings s = new TlsSettings("server_tls", SslMode.VERIFY_FULL, "", "", "ca", "legacy", "default", "",
                "auto", "none");
        ProviderChoices c = ProviderChoices.resolve(s, JDK);
        assertThat(c.groups()).isNull();
        assertThat(c.warnings()).containsExactly(
                "server_tls_protocols: TLSv1, TLSv1.1 not available in JDK TLS; using TLSv1.2, TLSv1.3");
    }
}
