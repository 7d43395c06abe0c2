package io.sluice.migrate;

/**
 * A suggested value from the capacity rules (docs/pressure.md, "Tuning rules").
 *
 * @param key         setting name, possibly qualified, e.g. {@code max_db_connections (db app)}
 * @param current     value in effect now
 * @param recommended suggested value
 * @param reason      the rule and the figures it used
 */
public record Recommendation(String key, String current, String recommended, String reason) {
}
