package io.sluice.session.state;

import io.sluice.session.state.SqlCommand.Kind;
import io.sluice.session.state.SqlLexer.Statement;
import io.sluice.session.state.SqlLexer.Token;

import java.util.ArrayList;
import java.util.List;

/**
 * Classifies each statement of a query text (a Query message, or the text of a Parse) into the
 * {@link SqlCommand} the pooler must track. Recognises SET/RESET in all their spellings,
 * transaction control with savepoints, SQL-level PREPARE/DEALLOCATE and DISCARD ALL; flags the
 * statements after which the server is asked whether pinning state exists. When a statement
 * changes session state in a way that cannot be replayed, or a SET is not understood, it is
 * {@link Kind#UNSURE}: the client keeps its server rather than lose the setting.
 */
public final class SqlClassifier {
    private SqlClassifier() {
    }

    private static final List<SqlCommand> PLAIN = List.of(SqlCommand.NONE);
    private static final String[] PLAIN_VERBS = {"select", "insert", "update", "delete", "values", "table", "with"};

    /** One command per non-empty statement, in order (as the server answers them). */
    public static List<SqlCommand> classify(String sql) {
        if (plain(sql)) {
            return PLAIN;
        }
        List<Statement> statements = SqlLexer.statements(sql);
        List<SqlCommand> out = new ArrayList<>(statements.size());
        for (Statement s : statements) {
            out.add(classify(sql, s));
        }
        return out;
    }

    /**
     * The hot path: one ordinary DML/SELECT statement that mentions none of the words that could
     * make it interesting, decided with one pass over the text and no tokens. A false "not plain"
     * only costs the full tokenizer.
     */
    static boolean plain(String sql) {
        int n = sql.length();
        int i = 0;
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        if (i == start || i < n && !Character.isWhitespace(sql.charAt(i)) && sql.charAt(i) != '(') {
            return false;
        }
        int verbLength = i - start;
        boolean known = false;
        for (String v : PLAIN_VERBS) {
            known |= v.length() == verbLength && sql.regionMatches(true, start, v, 0, verbLength);
        }
        if (!known) {
            return false;
        }
        int end = n;
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
            end--;
        }
        if (sql.lastIndexOf(';', end - 1) >= 0) {
            return false; // perhaps several statements
        }
        for (int k = i; k < end; k++) {
            // each trigger word starts with a letter of its own, so one comparison per candidate
            String w = switch (sql.charAt(k)) {
                case 't', 'T' -> "temp";
                case 'h', 'H' -> "hold";
                case 'a', 'A' -> "advisory";
                case 's', 'S' -> "set_config";
                default -> null;
            };
            if (w != null && sql.regionMatches(true, k, w, 0, w.length())) {
                return false;
            }
        }
        return true;
    }

    static SqlCommand classify(String sql, Statement s) {
        List<Token> t = s.tokens();
        Token first = t.get(0);
        if (first.type() != SqlLexer.Type.WORD) {
            return scan(t);
        }
        return switch (first.text()) {
            case "set" -> set(sql, s);
            case "reset" -> reset(t);
            case "begin", "start" -> SqlCommand.of(Kind.BEGIN, false);
            case "commit", "end" -> word(t, 1, "prepared") ? SqlCommand.NONE : SqlCommand.of(Kind.COMMIT, false);
            case "rollback", "abort" -> rollback(t);
            case "savepoint" -> t.size() == 2 && t.get(1).isName()
                    ? SqlCommand.named(Kind.SAVEPOINT, t.get(1).text(), null) : SqlCommand.NONE;
            case "release" -> release(t);
            case "prepare" -> prepare(sql, s);
            case "deallocate" -> deallocate(t);
            case "discard" -> word(t, 1, "all") ? SqlCommand.of(Kind.DISCARD_ALL, true) : SqlCommand.NONE_PROBE;
            case "listen", "unlisten", "drop", "close", "do", "call" -> SqlCommand.NONE_PROBE;
            default -> scan(t);
        };
    }

    private static boolean word(List<Token> t, int i, String w) {
        return i < t.size() && t.get(i).is(w);
    }

    /**
     * A statement the pooler does not interpret: probe when it may create pinning state,
     * unsure when it calls set_config with is_local other than a literal true.
     */
    private static SqlCommand scan(List<Token> t) {
        boolean probe = false;
        for (int i = 0; i < t.size(); i++) {
            Token k = t.get(i);
            if (k.type() != SqlLexer.Type.WORD) {
                continue;
            }
            String w = k.text();
            if (w.equals("temp") || w.equals("temporary") || w.equals("hold")) {
                probe = true;
            } else if ((w.startsWith("pg_advisory_") || w.startsWith("pg_try_advisory_")) && !w.contains("_xact_")) {
                probe = true;
            } else if (w.equals("set_config") && !localSetConfig(t, i)) {
                return new SqlCommand(Kind.UNSURE, "set_config", null, probe, -1, -1);
            }
        }
        return probe ? SqlCommand.NONE_PROBE : SqlCommand.NONE;
    }

    /** set_config(a, b, true): its last top-level argument is a literal true. */
    private static boolean localSetConfig(List<Token> t, int at) {
        if (at + 1 >= t.size() || !t.get(at + 1).isPunct('(')) {
            return true; // not a call of the function (a column named set_config)
        }
        int depth = 0;
        Token lastArgStart = null;
        int lastArgTokens = 0;
        for (int i = at + 1; i < t.size(); i++) {
            Token k = t.get(i);
            if (k.isPunct('(')) {
                depth++;
                if (depth == 1) {
                    continue;
                }
            } else if (k.isPunct(')')) {
                depth--;
                if (depth == 0) {
                    break;
                }
            } else if (depth == 1 && k.isPunct(',')) {
                lastArgStart = null;
                lastArgTokens = 0;
                continue;
            }
            if (lastArgStart == null) {
                lastArgStart = k;
            }
            lastArgTokens++;
        }
        if (lastArgStart == null || lastArgTokens != 1) {
            return false;
        }
        String v = lastArgStart.text();
        return lastArgStart.is("true") || lastArgStart.type() == SqlLexer.Type.STRING
                && (v.equalsIgnoreCase("t") || v.equalsIgnoreCase("true") || v.equalsIgnoreCase("on"));
    }

    private static SqlCommand set(String sql, Statement s) {
        List<Token> t = s.tokens();
        int i = 1;
        if (word(t, i, "local")) {
            return SqlCommand.NONE; // lasts until its transaction ends
        }
        if (word(t, i, "session")) {
            if (word(t, i + 1, "characteristics")) {
                return SqlCommand.named(Kind.UNSURE, "session characteristics", null);
            }
            if (word(t, i + 1, "authorization")) {
                return valueOf(sql, s, "session_authorization", i + 2);
            }
            i++;
        }
        if (i >= t.size()) {
            return SqlCommand.named(Kind.UNSURE, "set", null);
        }
        Token k = t.get(i);
        if (k.is("transaction") || k.is("constraints")) {
            return SqlCommand.NONE;
        }
        if (k.is("time") && word(t, i + 1, "zone")) {
            return valueOf(sql, s, "timezone", i + 2);
        }
        if (k.is("names")) {
            return valueOf(sql, s, "client_encoding", i + 1);
        }
        if (k.is("schema")) {
            return valueOf(sql, s, "search_path", i + 1);
        }
        if (k.is("role")) {
            return valueOf(sql, s, "role", i + 1);
        }
        if (k.is("xml") && word(t, i + 1, "option")) {
            return valueOf(sql, s, "xmloption", i + 2);
        }
        if (k.is("seed")) {
            return SqlCommand.NONE; // the random() sequence is not worth a server of its own
        }
        StringBuilder name = new StringBuilder();
        while (i < t.size() && t.get(i).isName()) {
            name.append(t.get(i).text());
            if (i + 1 < t.size() && t.get(i + 1).isPunct('.')) {
                name.append('.');
                i += 2;
            } else {
                i++;
                break;
            }
        }
        if (name.length() == 0 || i >= t.size() || !(t.get(i).is("to") || t.get(i).isPunct('='))) {
            return SqlCommand.named(Kind.UNSURE, "set", null);
        }
        return valueOf(sql, s, name.toString(), i + 1);
    }

    /** SET name ... value: the value's text, or RESET for DEFAULT (and ROLE NONE). */
    private static SqlCommand valueOf(String sql, Statement s, String name, int from) {
        List<Token> t = s.tokens();
        if (from >= t.size()) {
            return SqlCommand.named(Kind.UNSURE, name, null);
        }
        if (from == t.size() - 1 && (t.get(from).is("default")
                || name.equals("role") && t.get(from).is("none")
                || name.equals("timezone") && t.get(from).is("local"))) {
            return SqlCommand.named(Kind.RESET, name, null);
        }
        return SqlCommand.named(Kind.SET, name, sql.substring(t.get(from).start(), s.end()));
    }

    private static SqlCommand reset(List<Token> t) {
        if (t.size() == 2 && t.get(1).is("all")) {
            return SqlCommand.of(Kind.RESET_ALL, false);
        }
        if (t.size() == 3 && t.get(1).is("time") && t.get(2).is("zone")) {
            return SqlCommand.named(Kind.RESET, "timezone", null);
        }
        if (t.size() == 3 && t.get(1).is("session") && t.get(2).is("authorization")) {
            return SqlCommand.named(Kind.RESET, "session_authorization", null);
        }
        StringBuilder name = new StringBuilder();
        for (int i = 1; i < t.size(); i++) {
            Token k = t.get(i);
            boolean expectName = (i % 2) == 1;
            if (expectName ? !k.isName() : !k.isPunct('.')) {
                return SqlCommand.named(Kind.UNSURE, "reset", null);
            }
            name.append(k.text());
        }
        return name.length() == 0 ? SqlCommand.named(Kind.UNSURE, "reset", null)
                : SqlCommand.named(Kind.RESET, name.toString(), null);
    }

    private static SqlCommand rollback(List<Token> t) {
        if (word(t, 1, "prepared")) {
            return SqlCommand.NONE;
        }
        int i = 1;
        if (word(t, i, "work") || word(t, i, "transaction")) {
            i++;
        }
        if (word(t, i, "to")) {
            i++;
            if (word(t, i, "savepoint")) {
                i++;
            }
            return i < t.size() ? SqlCommand.named(Kind.ROLLBACK_TO, t.get(i).text(), null) : SqlCommand.NONE;
        }
        return SqlCommand.of(Kind.ROLLBACK, false);
    }

    private static SqlCommand release(List<Token> t) {
        int i = word(t, 1, "savepoint") ? 2 : 1;
        return i < t.size() ? SqlCommand.named(Kind.RELEASE, t.get(i).text(), null) : SqlCommand.NONE;
    }

    private static SqlCommand prepare(String sql, Statement s) {
        List<Token> t = s.tokens();
        if (word(t, 1, "transaction") || t.size() < 3 || !t.get(1).isName()) {
            return SqlCommand.NONE;
        }
        Token name = t.get(1);
        return new SqlCommand(Kind.PREPARE, name.text(), sql.substring(s.start(), s.end()), false,
                name.start(), name.end());
    }

    private static SqlCommand deallocate(List<Token> t) {
        int i = word(t, 1, "prepare") ? 2 : 1;
        if (i != t.size() - 1) {
            return SqlCommand.NONE;
        }
        Token name = t.get(i);
        if (name.is("all")) {
            return SqlCommand.of(Kind.DEALLOCATE_ALL, false);
        }
        return name.isName() ? new SqlCommand(Kind.DEALLOCATE, name.text(), null, false, name.start(), name.end())
                : SqlCommand.NONE;
    }
}
