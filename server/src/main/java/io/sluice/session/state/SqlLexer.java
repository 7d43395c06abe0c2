package io.sluice.session.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small SQL tokenizer, just enough to find statement boundaries and the first words of each
 * statement: PostgreSQL's comments (nested block comments too), quoted identifiers, standard,
 * escape ({@code E'..'}) and dollar-quoted strings are skipped as units, so a semicolon or a
 * keyword inside them never counts. Works on text decoded as ISO-8859-1, so offsets are byte
 * offsets of the original message and non-ASCII bytes are identifier characters.
 */
public final class SqlLexer {
    /** What a token is. */
    public enum Type { WORD, QUOTED, STRING, NUMBER, PARAM, PUNCT }

    /**
     * One token. {@code text} is lower-cased for words, the unquoted value for quoted
     * identifiers, the body for strings, the character itself for punctuation.
     */
    public record Token(Type type, String text, int start, int end) {
        public boolean is(String word) {
            return type == Type.WORD && text.equals(word);
        }

        public boolean isPunct(char c) {
            return type == Type.PUNCT && text.length() == 1 && text.charAt(0) == c;
        }

        /** An identifier as PostgreSQL folds it: words lower-cased, quoted ones as written. */
        public boolean isName() {
            return type == Type.WORD || type == Type.QUOTED;
        }
    }

    /** One statement's tokens; {@code start}/{@code end} delimit its text (no trailing semicolon). */
    public record Statement(List<Token> tokens, int start, int end) {
    }

    private final String sql;
    private int pos;

    private SqlLexer(String sql) {
        this.sql = sql;
    }

    /** The non-empty statements of {@code sql}, split at top-level semicolons. */
    public static List<Statement> statements(String sql) {
        SqlLexer lx = new SqlLexer(sql);
        List<Statement> out = new ArrayList<>(1);
        List<Token> cur = new ArrayList<>();
        Token t;
        while ((t = lx.next()) != null) {
            if (t.isPunct(';')) {
                if (!cur.isEmpty()) {
                    out.add(new Statement(cur, cur.get(0).start(), cur.get(cur.size() - 1).end()));
                    cur = new ArrayList<>();
                }
            } else {
                cur.add(t);
            }
        }
        if (!cur.isEmpty()) {
            out.add(new Statement(cur, cur.get(0).start(), cur.get(cur.size() - 1).end()));
        }
        return out;
    }

    private Token next() {
        skipSpaceAndComments();
        if (pos >= sql.length()) {
            return null;
        }
        int start = pos;
        char c = sql.charAt(pos);
        if ((c == 'e' || c == 'E') && peek(1) == '\'') {
            pos++;
            return string(start, true);
        }
        if ((c == 'u' || c == 'U') && peek(1) == '&' && (peek(2) == '\'' || peek(2) == '"')) {
            pos += 2;
            return sql.charAt(pos) == '\'' ? string(start, false) : quoted(start);
        }
        if ((c == 'b' || c == 'B' || c == 'x' || c == 'X' || c == 'n' || c == 'N') && peek(1) == '\'') {
            pos++;
            return string(start, false);
        }
        if (isIdentStart(c)) {
            while (pos < sql.length() && isIdentPart(sql.charAt(pos))) {
                pos++;
            }
            return new Token(Type.WORD, sql.substring(start, pos).toLowerCase(Locale.ROOT), start, pos);
        }
        if (c == '"') {
            return quoted(start);
        }
        if (c == '\'') {
            return string(start, false);
        }
        if (c == '$') {
            Token d = dollar(start);
            if (d != null) {
                return d;
            }
        }
        if (c >= '0' && c <= '9' || c == '.' && Character.isDigit(peek(1))) {
            while (pos < sql.length() && (Character.isLetterOrDigit(sql.charAt(pos)) || sql.charAt(pos) == '.'
                    || sql.charAt(pos) == '_')) {
                pos++;
            }
            return new Token(Type.NUMBER, sql.substring(start, pos), start, pos);
        }
        pos++;
        return new Token(Type.PUNCT, String.valueOf(c), start, pos);
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < sql.length() ? sql.charAt(i) : '\0';
    }

    private void skipSpaceAndComments() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (c == '-' && peek(1) == '-') {
                while (pos < sql.length() && sql.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && peek(1) == '*') {
                int depth = 0;
                do {
                    if (sql.charAt(pos) == '/' && peek(1) == '*') {
                        depth++;
                        pos += 2;
                    } else if (sql.charAt(pos) == '*' && peek(1) == '/') {
                        depth--;
                        pos += 2;
                    } else {
                        pos++;
                    }
                } while (depth > 0 && pos < sql.length());
            } else {
                return;
            }
        }
    }

    /** At a quote: a string up to its closing quote ('' doubles; with {@code escapes}, \ escapes). */
    private Token string(int start, boolean escapes) {
        return new Token(Type.STRING, quotedBody('\'', escapes), start, pos);
    }

    /** At a double quote: a quoted identifier up to its closing quote ("" doubles). */
    private Token quoted(int start) {
        return new Token(Type.QUOTED, quotedBody('"', false), start, pos);
    }

    /**
     * At an opening {@code quote}: the text up to the closing one, which is left behind. A doubled
     * quote stands for one; with {@code escapes} a backslash takes the next character as it is.
     */
    private String quotedBody(char quote, boolean escapes) {
        pos++; // opening quote
        StringBuilder body = new StringBuilder();
        while (pos < sql.length()) {
            char c = sql.charAt(pos++);
            if (escapes && c == '\\' && pos < sql.length()) {
                body.append(sql.charAt(pos++));
            } else if (c == quote) {
                if (pos < sql.length() && sql.charAt(pos) == quote) {
                    body.append(quote);
                    pos++;
                } else {
                    break;
                }
            } else {
                body.append(c);
            }
        }
        return body.toString();
    }

    /** {@code $1} parameters and {@code $tag$...$tag$} strings; null if neither (a lone $). */
    private Token dollar(int start) {
        int i = pos + 1;
        if (i < sql.length() && Character.isDigit(sql.charAt(i))) {
            while (i < sql.length() && Character.isDigit(sql.charAt(i))) {
                i++;
            }
            pos = i;
            return new Token(Type.PARAM, sql.substring(start, pos), start, pos);
        }
        while (i < sql.length() && sql.charAt(i) != '$' && isIdentPart(sql.charAt(i)) && sql.charAt(i) != '$') {
            i++;
        }
        if (i >= sql.length() || sql.charAt(i) != '$') {
            return null;
        }
        String tag = sql.substring(start, i + 1);
        int close = sql.indexOf(tag, i + 1);
        int bodyEnd = close < 0 ? sql.length() : close;
        pos = close < 0 ? sql.length() : close + tag.length();
        return new Token(Type.STRING, sql.substring(i + 1, bodyEnd), start, pos);
    }

    private static boolean isIdentStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80;
    }

    private static boolean isIdentPart(char c) {
        return isIdentStart(c) || c >= '0' && c <= '9' || c == '$';
    }
}
