package io.sluice.config.ini;

import io.sluice.config.FileErrors;
import io.sluice.config.QuotedText;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * PgBouncer's ini grammar (libusual {@code parse_ini_file}), written by hand because a
 * general ini library such as ini4j cannot report line numbers and throws on
 * {@code %include}. Rules:
 * <ul>
 *   <li>a line is a comment only if its first non-blank character is {@code ;} or
 *       {@code #}; there are no trailing comments, so {@code a = b ; c} has value
 *       {@code b ; c};</li>
 *   <li>{@code %include file} (file relative to the working directory, not to the including
 *       file) is expanded in place, at most {@value #MAX_INCLUDE} levels deep;</li>
 *   <li>{@code [name]} starts a section; a key is made of ASCII letters, digits and
 *       {@code _.-*}, or is double-quoted with {@code ""} for a quote; then {@code =}; the
 *       value is the rest of the line with surrounding blanks removed.</li>
 * </ul>
 * Stateless apart from the working directory; safe to share.
 */
public final class IniParser {

    /** libusual's MAX_INCLUDE. */
    public static final int MAX_INCLUDE = 10;

    private final Path workingDir;

    /** A parser resolving relative {@code %include} names against {@code workingDir}. */
    public IniParser(Path workingDir) {
        this.workingDir = workingDir;
    }

    /** Reads {@code file} (named in messages as {@code file.toString()}) and its includes. */
    public List<IniLine> parse(Path file) throws IniException {
        return parse(workingDir.resolve(file), file.toString());
    }

    /** Reads {@code file}, naming it {@code name} in messages, and its includes. */
    public List<IniLine> parse(Path file, String name) throws IniException {
        List<IniLine> out = new ArrayList<>();
        String text;
        try {
            text = read(file);
        } catch (IOException e) {
            throw IniException.unreadable("could not load file \"" + name + "\": " + FileErrors.reason(e));
        }
        parseText(name, text, 0, out);
        return out;
    }

    /** Parses {@code text} as if read from a file named {@code name}. */
    public List<IniLine> parseString(String name, String text) throws IniException {
        List<IniLine> out = new ArrayList<>();
        parseText(name, text, 0, out);
        return out;
    }

    private void parseText(String name, String text, int level, List<IniLine> out) throws IniException {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String t = lines[i].strip();
            if (t.isEmpty() || t.charAt(0) == ';' || t.charAt(0) == '#') {
                continue;
            }
            if (t.startsWith("%include") && t.length() > 8 && isBlank(t.charAt(8))) {
                include(name, lineNo, t.substring(9).strip(), level, out);
            } else if (t.charAt(0) == '[') {
                int close = t.indexOf(']');
                if (close < 0 || !isBlankOrComment(t.substring(close + 1))) {
                    throw new IniException(name, lineNo, "syntax error in configuration");
                }
                out.add(new IniLine(name, lineNo, t.substring(1, close).strip(), null));
            } else {
                out.add(keyValue(name, lineNo, t));
            }
        }
    }

    private void include(String name, int lineNo, String target, int level, List<IniLine> out)
            throws IniException {
        if (level >= MAX_INCLUDE) {
            throw new IniException(name, lineNo, "include nesting level too deep");
        }
        Path p = workingDir.resolve(target);
        String text;
        try {
            text = read(p);
        } catch (IOException e) {
            throw new IniException(name, lineNo, "could not load file \"" + target + "\": " + FileErrors.reason(e), true);
        }
        parseText(target, text, level + 1, out);
    }

    private static IniLine keyValue(String name, int lineNo, String t) throws IniException {
        int p = 0;
        String key;
        if (t.charAt(0) == '"') {
            StringBuilder sb = new StringBuilder();
            int close = QuotedText.read(t, 1, '"', sb);
            if (close < 0) {
                throw new IniException(name, lineNo, "syntax error in configuration");
            }
            p = close + 1;
            key = sb.toString();
        } else {
            while (p < t.length() && isKeyChar(t.charAt(p))) {
                p++;
            }
            key = t.substring(0, p);
        }
        while (p < t.length() && (t.charAt(p) == ' ' || t.charAt(p) == '\t')) {
            p++;
        }
        if (key.isEmpty() || p >= t.length() || t.charAt(p) != '=') {
            throw new IniException(name, lineNo, "syntax error in configuration");
        }
        return new IniLine(name, lineNo, key, t.substring(p + 1).strip());
    }

    private static boolean isKeyChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '_' || c == '.' || c == '-' || c == '*';
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private static boolean isBlankOrComment(String rest) {
        String r = rest.strip();
        return r.isEmpty() || r.charAt(0) == ';' || r.charAt(0) == '#';
    }

    private static String read(Path p) throws IOException {
        // lenient decoding: a stray Latin-1 byte in a comment must not make the file unreadable
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }
}
