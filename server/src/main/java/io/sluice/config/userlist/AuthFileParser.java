package io.sluice.config.userlist;

import io.sluice.config.FileErrors;
import io.sluice.config.QuotedText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads userlist.txt with PgBouncer's rules: one {@code "user" "secret"} per line, {@code ""}
 * inside quotes for one quote, anything after the second field ignored, lines starting with
 * {@code ;} and blank lines skipped. A broken line fails the file; the error carries the users
 * read before it, which a start keeps as PgBouncer does (a reload keeps the file read before). Limits as in 1.25.2: user name under 128 bytes, secret under 2048.
 * Stateless.
 */
public final class AuthFileParser {

    /** PgBouncer's MAX_USERNAME: the name must be shorter. */
    public static final int MAX_USERNAME = 128;
    /** PgBouncer 1.25.2's MAX_PASSWORD: the secret must be shorter. */
    public static final int MAX_PASSWORD = 2048;

    private AuthFileParser() {
    }

    /** Reads {@code file}; {@code name} is how messages name it (the configured value). */
    public static AuthFile read(Path file, String name) throws AuthFileException {
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AuthFileException(name, 0, "could not open auth_file " + name + ": " + FileErrors.reason(e));
        }
        return parse(name, text);
    }

    /** Parses auth file text; a broken line fails it, carrying the users of the lines before. */
    public static AuthFile parse(String name, String text) throws AuthFileException {
        Map<String, Secret> users = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            try {
                line(name, i + 1, lines[i], users);
            } catch (AuthFileException e) {
                throw new AuthFileException(e.file(), e.line(), e.what(), new AuthFile(name, users));
            }
        }
        return new AuthFile(name, users);
    }

    private static void line(String name, int lineNo, String raw, Map<String, Secret> users) throws AuthFileException {
        String t = raw.stripLeading();
        if (t.isBlank() || t.charAt(0) == ';') {
            return;
        }
        if (t.charAt(0) != '"') {
            throw new AuthFileException(name, lineNo, "broken auth file");
        }
        int[] end = new int[1];
        String user = quoted(t, 0, end, name, lineNo);
        if (utf8Length(t, 1, end[0]) >= MAX_USERNAME) {
            throw new AuthFileException(name, lineNo, "username too long in auth file");
        }
        // PgBouncer skips whatever stands between the two fields up to the next quote
        int second = t.indexOf('"', end[0] + 1);
        if (second < 0) {
            throw new AuthFileException(name, lineNo, "broken auth file");
        }
        String secret = quoted(t, second, end, name, lineNo);
        if (utf8Length(t, second + 1, end[0]) >= MAX_PASSWORD) {
            throw new AuthFileException(name, lineNo, "password too long in auth file");
        }
        users.put(user, Secret.of(secret));
    }

    /** Reads a quoted field starting at {@code open}; sets end[0] to the closing quote. */
    private static String quoted(String t, int open, int[] end, String name, int lineNo)
            throws AuthFileException {
        StringBuilder sb = new StringBuilder();
        int close = QuotedText.read(t, open + 1, '"', sb);
        if (close < 0) {
            throw new AuthFileException(name, lineNo, "broken auth file");
        }
        end[0] = close;
        return sb.toString();
    }

    /** Byte length of the raw (still escaped) field, which is what PgBouncer measures. */
    private static int utf8Length(String t, int from, int to) {
        return t.substring(from, to).getBytes(StandardCharsets.UTF_8).length;
    }
}
