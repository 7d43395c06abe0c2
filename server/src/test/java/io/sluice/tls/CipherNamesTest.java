package io.sluice.tls;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class CipherNamesTest {
    @ParameterizedTest
    @CsvSource({
        "TLS_AES_256_GCM_SHA384, TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256, TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, ECDHE-RSA-AES256-GCM-SHA384",
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ECDHE-ECDSA-AES128-GCM-SHA256",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, ECDHE-RSA-CHACHA20-POLY1305",
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, ECDHE-RSA-AES128-SHA",
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, ECDHE-RSA-AES256-SHA384",
        "TLS_RSA_WITH_AES_128_GCM_SHA256, AES128-GCM-SHA256",
        "TLS_RSA_WITH_AES_256_CBC_SHA, AES256-SHA",
        "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384, DHE-RSA-AES256-GCM-SHA384",
        "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256, ECDHE-PSK-CHACHA20-POLY1305"
    })
    void ianaNamesInOpensslSpelling(String java, String openssl) {
        assertThat(CipherNames.openSsl(java)).isEqualTo(openssl);
    }
}
