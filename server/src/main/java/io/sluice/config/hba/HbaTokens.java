package io.sluice.config.hba;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of an hba or ident file into whitespace-separated fields of comma-separated
 * items, as PgBouncer's tokenizer does: {@code "quoted"} items are literal (a quoted
 * {@code all} is a name, not the keyword), {@code #} starts a comment. Stateless.
 */
final class HbaTokens {

    /** One item of a field; {@code quoted} items never act as keywords. */
    record Item(String text, boolean quoted) {
        boolean is(String keyword) {
            return !quoted && text.equals(keyword);
        }
    }

    private HbaTokens() {
    }

    static List<List<Item>> fields(String s, String name, int line) throws HbaException {
        List<List<Item>> fields = new ArrayList<>();
        List<Item> cur = null;
        StringBuilder tok = new StringBuilder();
        boolean quoted = false;
        boolean inQuote = false;
        boolean continues = false; // last item ended with a comma: next token joins this field
        int i = 0;
        while (i <= s.length()) {
            char c = i < s.length() ? s.charAt(i) : '\n';
            if (inQuote) {
                if (c == '\n') {
                    throw new HbaException(name, line, "unterminated quoted string");
                }
                if (c == '"' && i + 1 < s.length() && s.charAt(i + 1) == '"') {
                    tok.append('"'); // "" inside quotes is one quote, as in PgBouncer
                    i++;
                } else if (c == '"') {
                    inQuote = false;
                } else {
                    tok.append(c);
                }
            } else if (c == '"') {
                inQuote = true;
                quoted = true;
            } else if (c == '#' || c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == ',') {
                if (tok.length() > 0 || quoted) {
                    if (cur == null || !continues) {
                        cur = new ArrayList<>();
                        fields.add(cur);
                    }
                    cur.add(new Item(tok.toString(), quoted));
                    tok.setLength(0);
                    quoted = false;
                    continues = false;
                }
                if (c == ',') {
                    continues = true;
                }
                if (c == '#') {
                    break;
                }
            } else {
                tok.append(c);
            }
            i++;
        }
        return fields;
    }
}
