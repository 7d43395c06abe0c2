package io.sluice.admin;

/**
 * One SHOW CONFIG row, as text exactly as PgBouncer prints it (see
 * {@code reference/show-config-1.25.2.tsv}; e.g. unix_socket_mode value {@code 511}, default
 * {@code 0777}).
 *
 * @param changeable true if RELOAD/SET may change it at run time (printed yes/no)
 */
public record ConfigRow(String key, String value, String defaultValue, boolean changeable) {
}
