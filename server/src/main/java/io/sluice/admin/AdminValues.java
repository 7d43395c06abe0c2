package io.sluice.admin;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Text format of console cells, as PgBouncer's DataRow writer prints them: integers in decimal,
 * numeric without exponent, bytea as {@code \x} plus lowercase hex, NULL stays NULL (an empty
 * string is a value, not NULL), timestamps as {@code 2026-11-30 10:37:22 UTC}.
 */
public final class AdminValues {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private AdminValues() {
    }

    /** The DataRow text of a cell, or null for SQL NULL. */
    public static String toText(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Integer || value instanceof Long) {
            return value.toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] b) {
            return bytea(b);
        }
        throw new IllegalArgumentException("not a console cell type: " + value.getClass().getName());
    }

    /** bytea hex output: {@code \x} then two lowercase hex digits per byte. */
    public static String bytea(byte[] bytes) {
        StringBuilder sb = new StringBuilder(2 + bytes.length * 2).append("\\x");
        for (byte b : bytes) {
            sb.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
        }
        return sb.toString();
    }

    /**
     * A SHOW CLIENTS/SERVERS timestamp at whole seconds, in UTC. PgBouncer prints its local time
     * zone; Sluice always prints UTC so the text is the same on every host.
     */
    public static String timestamp(long epochMillis) {
        return TIMESTAMP.format(Instant.ofEpochMilli(Math.floorDiv(epochMillis, 1000L) * 1000L));
    }

    /** A C {@code %p} pointer as glibc prints it: {@code 0x} plus lowercase hex, no padding. */
    public static String pointer(long ptr) {
        return "0x" + Long.toHexString(ptr);
    }

    /** C {@code %9d}: right-aligned in a field of width 9 (longer numbers are not cut). */
    public static String width9(int value) {
        return String.format(java.util.Locale.ROOT, "%9d", value);
    }
}
