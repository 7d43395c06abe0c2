package io.sluice.tls;

import java.util.Locale;

/** PgBouncer's sslmode values, in order of strictness (libpq's names). */
public enum SslMode {
    DISABLE, ALLOW, PREFER, REQUIRE, VERIFY_CA, VERIFY_FULL;

    /** The config value ({@code verify-full} ...) as a mode. */
    public static SslMode of(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public boolean enabled() {
        return this != DISABLE;
    }

    /** TLS is mandatory: plain connections are refused (clients) or failed (servers). */
    public boolean requiresTls() {
        return compareTo(REQUIRE) >= 0;
    }

    /** The peer's certificate must chain to the CA. */
    public boolean verifiesPeer() {
        return compareTo(VERIFY_CA) >= 0;
    }

    /** The config spelling. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
