package io.sluice.auth;

import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where SCRAM nonces come from. Production uses {@link #secureRandom()}; tests inject fixed
 * nonces. A nonce must consist of SCRAM "printable" characters (0x21-0x7E except ',').
 */
@FunctionalInterface
public interface NonceSource {
    String nextNonce();

    /** 18 random bytes, base64-encoded: the shape PostgreSQL and PgBouncer use. */
    static NonceSource secureRandom() {
        return fromBytes(() -> {
            byte[] raw = new byte[ScramCrypto.RAW_NONCE_LEN];
            ScramCrypto.RANDOM.nextBytes(raw);
            return raw;
        });
    }

    /** Base64 of whatever bytes the supplier gives, e.g. a seeded generator in tests. */
    static NonceSource fromBytes(Supplier<byte[]> bytes) {
        Objects.requireNonNull(bytes);
        return () -> Base64.getEncoder().encodeToString(bytes.get());
    }

    /** Always the same nonce; for tests and test vectors only. */
    static NonceSource fixed(String nonce) {
        Objects.requireNonNull(nonce);
        return () -> nonce;
    }
}
