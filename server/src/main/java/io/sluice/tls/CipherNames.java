package io.sluice.tls;

/**
 * Cipher suite names in OpenSSL's spelling, which is what PgBouncer shows and what its
 * {@code *_tls_ciphers} lists use; Java providers speak the IANA names. TLS 1.3 names are the
 * same in both.
 */
public final class CipherNames {
    private CipherNames() {
    }

    /** {@code TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384} becomes {@code ECDHE-RSA-AES256-GCM-SHA384}. */
    public static String openSsl(String javaName) {
        if (javaName == null) {
            return null;
        }
        int with = javaName.indexOf("_WITH_");
        if (with < 0 || !(javaName.startsWith("TLS_") || javaName.startsWith("SSL_"))) {
            return javaName; // TLS 1.3 suites and anything unexpected keep their name
        }
        String kx = javaName.substring(4, with);
        String enc = javaName.substring(with + "_WITH_".length())
                .replaceAll("AES_(\\d+)", "AES$1")
                .replace("_CBC_", "-")
                .replace("_GCM_", "-GCM-")
                .replace("CHACHA20_POLY1305_SHA256", "CHACHA20-POLY1305")
                .replace('_', '-');
        if (kx.equals("RSA")) {
            return enc;
        }
        return kx.replace('_', '-') + "-" + enc;
    }
}
