package io.sluice.tls;

import java.util.List;
import java.util.Set;

/**
 * What one TLS implementation offers, as {@link ProviderChoices} needs it.
 *
 * @param name       for warnings: "BoringSSL" or "JDK TLS"
 * @param boringSsl  BoringSSL: TLS 1.3 suites fixed, no DHE, curves settable per context
 * @param protocols  protocol names it can enable ({@code TLSv1.2} ...)
 * @param ciphers    suite names (IANA) it supports, TLS 1.3 ones included
 */
public record TlsProvider(String name, boolean boringSsl, Set<String> protocols, List<String> ciphers) {
    /** TLS 1.3 suites every provider has, in OpenSSL's default order. */
    static final List<String> TLS13_DEFAULT =
            List.of("TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_GCM_SHA256");

    static boolean isTls13Suite(String name) {
        return name.startsWith("TLS_") && !name.contains("_WITH_");
    }
}
