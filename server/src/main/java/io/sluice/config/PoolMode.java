package io.sluice.config;

import java.util.Locale;
import java.util.Optional;

/** PgBouncer's pool modes; {@link #configName()} is the word used in config and SHOW. */
public enum PoolMode {
    SESSION, TRANSACTION, STATEMENT;

    private final String configName = name().toLowerCase(Locale.ROOT);

    /** The lower-case config word. */
    public String configName() {
        return configName;
    }

    /** Case-insensitive lookup like libusual's {@code cf_set_lookup}. */
    public static Optional<PoolMode> fromConfig(String s) {
        for (PoolMode m : values()) {
            if (m.configName().equalsIgnoreCase(s)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
