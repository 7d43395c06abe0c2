package io.sluice.session;

import java.util.Locale;
import java.util.Set;

/**
 * The {@code replication} startup parameter: {@code database} asks for logical replication, a
 * true boolean for physical; anything else (false, or a value that is no boolean) is an ordinary
 * connection, as PgBouncer 1.23+ reads it. {@link #word()} is what SHOW CLIENTS / SHOW SERVERS
 * print in their {@code replication} column.
 */
public enum Replication {
    NONE("none"), PHYSICAL("physical"), LOGICAL("logical");

    private static final Set<String> TRUE = Set.of("t", "tr", "tru", "true", "y", "ye", "yes", "on", "1");

    private final String word;

    Replication(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    static Replication of(String value) {
        if (value == null) {
            return NONE;
        }
        if (value.equals("database")) {
            return LOGICAL;
        }
        return TRUE.contains(value.strip().toLowerCase(Locale.ROOT)) ? PHYSICAL : NONE;
    }

    /** The value sent to PostgreSQL on the dedicated server connection. */
    String startupValue() {
        return this == LOGICAL ? "database" : "true";
    }
}
