package io.sluice.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One row of the key table: a {@code [pgbouncer]} setting with its type, its default as
 * SHOW CONFIG prints it, whether it may change at run time (RELOAD/SET), and whether Sluice
 * acts on it.
 *
 * @param name          lower-case key name
 * @param type          value type
 * @param defaultValue  default exactly as SHOW CONFIG's {@code default} column prints it
 *                      ({@code ""} for unset)
 * @param changeable    true if RELOAD/SET may change it (SHOW CONFIG {@code changeable} = yes)
 * @param supported     true if Sluice acts on it; a key present in a file with false here
 *                      yields a warning
 * @param allowed       allowed names for {@link KeyType#ENUM}, empty otherwise
 * @param origin        whether the key is PgBouncer's or Sluice's own
 */
public record ConfigKey(
        String name,
        KeyType type,
        String defaultValue,
        boolean changeable,
        boolean supported,
        List<String> allowed,
        Origin origin) {

    /** Where a key comes from. */
    public enum Origin {
        /** One of PgBouncer 1.25.2's 98 keys. */
        PGBOUNCER,
        /** A Sluice extension (pool pressure). */
        SLUICE
    }

    public ConfigKey {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        allowed = List.copyOf(allowed);
        Objects.requireNonNull(origin, "origin");
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("key names are lower case: " + name);
        }
        if ((type == KeyType.ENUM) == allowed.isEmpty()) {
            throw new IllegalArgumentException("allowed values iff ENUM: " + name);
        }
    }
}
