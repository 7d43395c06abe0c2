package io.sluice.config.ini;

import io.sluice.config.QuotedText;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Splits a {@code [databases]}/{@code [users]}/{@code [peers]} value into {@code key=value}
 * pairs exactly like PgBouncer's loader ({@code cstr_get_pair}): pairs are separated by
 * spaces (only the space character); a key runs up to {@code =} or a space; a value is
 * either bare (up to the next space) or single-quoted with {@code ''} standing for one
 * quote (no backslash escapes); empty values are a syntax error. Stateless.
 */
public final class ConnStringParser {

    private ConnStringParser() {
    }

    /** The pairs in written order, or empty on a syntax error. */
    public static Optional<List<Map.Entry<String, String>>> parse(String s) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        int p = skipSpaces(s, 0);
        while (p < s.length()) {
            int keyStart = p;
            while (p < s.length() && s.charAt(p) != '=' && s.charAt(p) != ' ') {
                p++;
            }
            int keyEnd = p;
            p = skipSpaces(s, p);
            if (p >= s.length() || s.charAt(p) != '=' || keyEnd == keyStart) {
                return Optional.empty();
            }
            p = skipSpaces(s, p + 1);
            String value;
            if (p < s.length() && s.charAt(p) == '\'') {
                StringBuilder sb = new StringBuilder();
                int close = QuotedText.read(s, p + 1, '\'', sb);
                if (close < 0) {
                    return Optional.empty(); // unterminated quote
                }
                p = close + 1;
                value = sb.toString();
                // PgBouncer cuts the character after the closing quote, whatever it is
                if (p < s.length()) {
                    p++;
                }
            } else {
                int vStart = p;
                while (p < s.length() && s.charAt(p) != ' ') {
                    p++;
                }
                value = s.substring(vStart, p);
            }
            if (value.isEmpty()) {
                return Optional.empty();
            }
            out.add(new SimpleImmutableEntry<>(s.substring(keyStart, keyEnd), value));
            p = skipSpaces(s, p);
        }
        return Optional.of(List.copyOf(out));
    }

    private static int skipSpaces(String s, int p) {
        while (p < s.length() && s.charAt(p) == ' ') {
            p++;
        }
        return p;
    }
}
