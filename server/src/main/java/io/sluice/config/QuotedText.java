package io.sluice.config;

/**
 * The quoting PgBouncer's config, connect strings and auth file share: a value between two
 * quote characters, where a doubled quote stands for one. Stateless.
 */
public final class QuotedText {
    private QuotedText() {
    }

    /**
     * Reads a quoted value into {@code out}.
     *
     * @param from index of the first character after the opening quote
     * @return index of the closing quote, or -1 when the text ends before it
     */
    public static int read(String s, int from, char quote, StringBuilder out) {
        int p = from;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == quote) {
                if (p + 1 < s.length() && s.charAt(p + 1) == quote) {
                    out.append(quote);
                    p += 2;
                    continue;
                }
                return p;
            }
            out.append(c);
            p++;
        }
        return -1;
    }
}
