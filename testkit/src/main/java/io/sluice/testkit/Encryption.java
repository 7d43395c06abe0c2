package io.sluice.testkit;

/**
 * How PostgreSQL stores a role's password ({@code password_encryption} at CREATE ROLE time),
 * or {@link #NONE} for a role without a password.
 */
public enum Encryption {
    MD5("md5"),
    SCRAM("scram-sha-256"),
    NONE(null);

    private final String setting;

    Encryption(String setting) {
        this.setting = setting;
    }

    /** The {@code password_encryption} value, or null for {@link #NONE}. */
    public String setting() {
        return setting;
    }
}
