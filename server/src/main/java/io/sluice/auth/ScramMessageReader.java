package io.sluice.auth;

/**
 * Cursor over one SCRAM message ({@code attr=value,attr=value,...}). Errors are thrown as
 * {@link ScramException} with PgBouncer's log wording. Not thread-safe; one message per instance.
 */
final class ScramMessageReader {
    private final String text;
    private int pos;

    ScramMessageReader(String text) {
        this.text = text;
    }

    boolean atEnd() {
        return pos >= text.length();
    }

    /** The next character, or NUL at the end (mirrors reading a C string). */
    char peek() {
        return atEnd() ? '\0' : text.charAt(pos);
    }

    int position() {
        return pos;
    }

    void skip() {
        pos++;
    }

    String rest() {
        return text.substring(Math.min(pos, text.length()));
    }

    /** Reads {@code <attr>=<value>}, attr being {@code expected}; consumes a trailing comma. */
    String attr(char expected) {
        if (peek() != expected) {
            throw ScramException.malformed(
                    "malformed SCRAM message (attribute \"" + expected + "\" expected)");
        }
        pos++;
        if (peek() != '=') {
            throw ScramException.malformed(
                    "malformed SCRAM message (expected \"=\" after attribute \"" + expected
                            + "\")");
        }
        pos++;
        return value();
    }

    /** An attribute name and its value. */
    record Attr(char name, String value) {}

    /** Reads any {@code <letter>=<value>}; consumes a trailing comma. */
    Attr anyAttr() {
        char name = peek();
        if (!((name >= 'A' && name <= 'Z') || (name >= 'a' && name <= 'z'))) {
            throw ScramException.malformed(
                    "malformed SCRAM message (attribute expected, but found invalid character \""
                            + sanitize(name) + "\")");
        }
        pos++;
        if (peek() != '=') {
            throw ScramException.malformed(
                    "malformed SCRAM message (expected character \"=\" after attribute \""
                            + name + "\")");
        }
        pos++;
        return new Attr(name, value());
    }

    private String value() {
        int end = text.indexOf(',', pos);
        String value;
        if (end < 0) {
            value = text.substring(pos);
            pos = text.length();
        } else {
            value = text.substring(pos, end);
            pos = end + 1;
        }
        return value;
    }

    /** How PgBouncer quotes an unexpected character in a log line. */
    static String sanitize(char c) {
        return c >= 0x21 && c <= 0x7E ? "'" + c + "'" : String.format("0x%02x", (int) c & 0xFF);
    }

    /** How PostgreSQL quotes a client's string in an error: printable ASCII, else '?', at most 30. */
    static String sanitize(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && i < 30; i++) {
            char c = s.charAt(i);
            out.append(c >= 0x21 && c <= 0x7E ? c : '?');
        }
        return out.toString();
    }

    /** RFC 5802 "printable": 0x21-0x7E except ','. */
    static boolean isPrintable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7E || c == ',') {
                return false;
            }
        }
        return true;
    }
}
