package io.sluice.config;

/**
 * One row of SHOW CONFIG, all text as PgBouncer sends it.
 *
 * @param key          key name
 * @param value        current value as PgBouncer prints it
 * @param defaultValue default as PgBouncer prints it ({@code ""} when unset)
 * @param changeable   {@code "yes"} or {@code "no"}
 */
public record ShowConfigRow(String key, String value, String defaultValue, String changeable) {
}
