package io.sluice.tls;

import io.sluice.config.Settings;

/**
 * One side's TLS keys as configured: {@code client_tls_*} (towards clients) or
 * {@code server_tls_*} (towards PostgreSQL). Equal settings mean an equal TLS configuration,
 * which is how RELOAD decides whether server connections must be recycled (PgBouncer >= 1.24).
 *
 * @param prefix       {@code client_tls} or {@code server_tls}, for messages
 * @param dheParams    always "none" on the server side, which has no such key
 * @param ecdhCurve    always "auto" on the server side, which has no such key
 */
public record TlsSettings(String prefix, SslMode mode, String keyFile, String certFile, String caFile,
                          String protocols, String ciphers, String tls13Ciphers, String ecdhCurve,
                          String dheParams) {

    public static TlsSettings client(Settings s) {
        return new TlsSettings("client_tls", SslMode.of(s.string("client_tls_sslmode")),
                s.string("client_tls_key_file"), s.string("client_tls_cert_file"), s.string("client_tls_ca_file"),
                s.string("client_tls_protocols"), s.string("client_tls_ciphers"), s.string("client_tls13_ciphers"),
                s.string("client_tls_ecdhcurve"), s.string("client_tls_dheparams"));
    }

    public static TlsSettings server(Settings s) {
        return new TlsSettings("server_tls", SslMode.of(s.string("server_tls_sslmode")),
                s.string("server_tls_key_file"), s.string("server_tls_cert_file"), s.string("server_tls_ca_file"),
                s.string("server_tls_protocols"), s.string("server_tls_ciphers"), s.string("server_tls13_ciphers"),
                "auto", "none");
    }

    /** The key name of one of this side's settings, e.g. {@code client_tls_key_file}. */
    String key(String suffix) {
        return prefix + "_" + suffix;
    }

    /** {@code client_tls13_ciphers} or {@code server_tls13_ciphers}. */
    String tls13CiphersKey() {
        return prefix.replace("_tls", "_tls13") + "_ciphers";
    }

    static boolean set(String value) {
        return value != null && !value.isBlank();
    }
}
