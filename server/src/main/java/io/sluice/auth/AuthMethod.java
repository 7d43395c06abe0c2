package io.sluice.auth;

import io.sluice.config.hba.HbaMethod;
import java.util.Locale;
import java.util.Optional;

/**
 * Authentication methods: the values of {@code auth_type} and the method column of
 * {@code auth_hba_file}. Names are PgBouncer's.
 */
public enum AuthMethod {
    /** No authentication; the client's user name is ignored (forced user required). */
    ANY("any"),
    /** No password, but the user must be known. */
    TRUST("trust"),
    /** Cleartext password ("password" in an HBA file). */
    PLAIN("plain"),
    MD5("md5"),
    SCRAM_SHA_256("scram-sha-256"),
    /** TLS client certificate; user name from the certificate CN. */
    CERT("cert"),
    /** Per-connection method from auth_hba_file. auth_type only. */
    HBA("hba"),
    /** PAM (PgBouncer builds with PAM only). auth_type only. */
    PAM("pam"),
    /** LDAP (PgBouncer builds with LDAP only). */
    LDAP("ldap"),
    /** Unix-socket peer credentials. HBA only. */
    PEER("peer"),
    /** Always refuse. HBA only. */
    REJECT("reject");

    private final String configName;

    AuthMethod(String configName) {
        this.configName = configName;
    }

    /** The spelling used in pgbouncer.ini and SHOW CONFIG. */
    public String configName() {
        return configName;
    }

    /** True if the value is allowed for {@code auth_type} (everything except peer and reject). */
    public boolean validAuthType() {
        return this != PEER && this != REJECT;
    }

    /** True if the value is allowed in an HBA rule (everything except any, hba and pam). */
    public boolean validInHba() {
        return this != ANY && this != HBA && this != PAM;
    }

    /**
     * Parses an {@code auth_type} value the way PgBouncer's config lookup does: exact name,
     * ASCII case-insensitive, no trimming.
     *
     * @throws IllegalArgumentException for an unknown value or one that is valid only in HBA
     */
    public static AuthMethod parseAuthType(String value) {
        return tryParseAuthType(value).orElseThrow(
                () -> new IllegalArgumentException("invalid auth_type value: " + value));
    }

    public static Optional<AuthMethod> tryParseAuthType(String value) {
        return byName(value == null ? null : value.toLowerCase(Locale.ROOT))
                .filter(AuthMethod::validAuthType);
    }

    /**
     * Parses the method column of an HBA rule as PgBouncer does (case-sensitive;
     * {@code password} means {@link #PLAIN}).
     */
    public static Optional<AuthMethod> tryParseHbaMethod(String value) {
        return HbaMethod.fromConfig(value).map(AuthMethod::of);
    }

    /** The method an hba rule names. */
    public static AuthMethod of(HbaMethod m) {
        return switch (m) {
            case TRUST -> TRUST;
            case REJECT -> REJECT;
            case MD5 -> MD5;
            case PLAIN -> PLAIN;
            case SCRAM_SHA_256 -> SCRAM_SHA_256;
            case PEER -> PEER;
            case CERT -> CERT;
        };
    }

    private static Optional<AuthMethod> byName(String name) {
        for (AuthMethod m : values()) {
            if (m.configName.equals(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return configName;
    }
}
