package io.sluice.config;

/**
 * Value type of a {@code [pgbouncer]} key, deciding how a value is parsed and how SHOW CONFIG
 * prints it. Integers follow C {@code strtol(..., 0)} rules like PgBouncer ({@code 0x1f} is
 * hex, a leading {@code 0} means octal).
 */
public enum KeyType {
    /** Signed integer. */
    INT,
    /** Integer used as a flag (PgBouncer parses these as plain ints; non-zero means on). */
    BOOL,
    /** Free text, stored as written. */
    STRING,
    /** Seconds with fractions, stored in microseconds like PgBouncer's {@code usec_t}. */
    TIME,
    /** One of a fixed set of names, matched case-insensitively, printed in canonical form. */
    ENUM,
    /** File mode, parsed like INT (so {@code 0777} is octal) and printed in decimal. */
    MODE,
    /** Text kept as written; consumers split it on commas and whitespace. */
    LIST
}
