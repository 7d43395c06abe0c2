package io.sluice.util;

/**
 * One instance for equal parameter values (client_encoding, DateStyle, TimeZone,
 * application_name...): a client's values are compared with its server's on every server switch,
 * and equal instances compare by reference. {@code String.intern} did this at the cost of a native
 * call into the JVM's string table for each value of each login; this is a map lookup. Bounded:
 * past its limit of distinct values, or for a long value, a string is returned as it is, which
 * only costs the comparison its shortcut.
 */
public final class SharedStrings {
    private static final SharedStrings PARAMETERS = new SharedStrings(4096, 128);

    private final Interner<String> shared;
    private final int longest;

    SharedStrings(int limit, int longest) {
        this.shared = new Interner<>(limit);
        this.longest = longest;
    }

    /** The process-wide shared instance equal to {@code s}, or {@code s} itself. */
    public static String of(String s) {
        return PARAMETERS.share(s);
    }

    String share(String s) {
        return s.length() > longest ? s : shared.share(s);
    }
}
