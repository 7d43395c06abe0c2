package io.sluice.migrate;

import io.sluice.config.ini.IniException;
import io.sluice.config.ini.IniParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a pgbouncer.ini with its {@code %include}s into physical lines, keeping comments and
 * blank lines so the converted file can keep them. Syntax is first checked by Sluice's own
 * {@link IniParser} (the grammar PgBouncer uses), so a bad file fails here with the same
 * {@code file:line: reason} Sluice and PgBouncer would give. Relative include names resolve
 * against the working directory, as in PgBouncer. Stateless apart from that directory.
 */
public final class SourceReader {
    private final Path workingDir;

    public SourceReader(Path workingDir) {
        this.workingDir = workingDir;
    }

    /** All lines of {@code file} with includes expanded in place (between BEGIN/END markers). */
    public List<SourceLine> read(Path file) throws InputException {
        try {
            new IniParser(workingDir).parse(workingDir.resolve(file), file.toString());
        } catch (IniException e) {
            throw new InputException(e.file(), e.line(), e.what());
        }
        List<SourceLine> out = new ArrayList<>();
        String[] section = {""};
        expand(file, file.toString(), 0, section, out);
        return out;
    }

    private void expand(Path file, String name, int depth, String[] section, List<SourceLine> out)
            throws InputException {
        String text;
        try {
            text = Files.readString(workingDir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InputException(name, 0, "could not read config file: " + e.getMessage());
        }
        String[] lines = text.split("\r?\n", -1);
        int n = text.endsWith("\n") ? lines.length - 1 : lines.length;
        for (int i = 0; i < n; i++) {
            String raw = lines[i];
            String t = raw.strip();
            int no = i + 1;
            if (t.isEmpty()) {
                out.add(new SourceLine(name, no, raw, SourceLine.Kind.BLANK, section[0], null, null, depth));
            } else if (t.startsWith(";") || t.startsWith("#")) {
                out.add(new SourceLine(name, no, raw, SourceLine.Kind.COMMENT, section[0], null, null, depth));
            } else if (t.startsWith("%include")) {
                String inc = t.substring("%include".length()).strip();
                out.add(new SourceLine(name, no, raw, SourceLine.Kind.INCLUDE_BEGIN, section[0], inc, null, depth));
                expand(Path.of(inc), inc, depth + 1, section, out);
                out.add(new SourceLine(name, no, raw, SourceLine.Kind.INCLUDE_END, section[0], inc, null, depth));
            } else if (t.startsWith("[")) {
                section[0] = t.substring(1, t.indexOf(']')).strip().toLowerCase(Locale.ROOT);
                out.add(new SourceLine(name, no, raw, SourceLine.Kind.SECTION, section[0], null, null, depth));
            } else {
                int eq = keyEnd(t);
                String key = unquote(t.substring(0, eq).strip());
                String value = t.substring(eq + 1).strip();
                out.add(new SourceLine(name, no, raw, SourceLine.Kind.KEY, section[0], key, value, depth));
            }
        }
    }

    /** Index of the '=' ending the key; a double-quoted key may itself contain '='. */
    private static int keyEnd(String t) {
        if (t.startsWith("\"")) {
            int i = 1;
            while (i < t.length()) {
                if (t.charAt(i) == '"') {
                    if (i + 1 < t.length() && t.charAt(i + 1) == '"') {
                        i += 2;
                        continue;
                    }
                    return t.indexOf('=', i);
                }
                i++;
            }
        }
        return t.indexOf('=');
    }

    private static String unquote(String k) {
        if (k.length() >= 2 && k.startsWith("\"") && k.endsWith("\"")) {
            return k.substring(1, k.length() - 1).replace("\"\"", "\"");
        }
        return k;
    }
}
