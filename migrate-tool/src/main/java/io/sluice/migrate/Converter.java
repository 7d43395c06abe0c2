package io.sluice.migrate;

import io.sluice.config.ConfigKey;
import io.sluice.config.ConfigKeys;
import io.sluice.config.ValueCodec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the lines of a pgbouncer.ini (includes expanded) into a Sluice config that behaves
 * the same: every line is carried over in order with its comments; deprecated names are
 * replaced (old line kept as a comment); a line whose value Sluice refuses is commented out
 * and reported as an error; the pool-pressure keys are written out explicitly with comments
 * at the end of the {@code [pgbouncer]} section. Findings go into the report. Single use,
 * single thread.
 */
final class Converter {
    static final String MARK = "; sluice-migrate: ";
    private static final Set<String> SECTIONS = Set.of("pgbouncer", "databases", "users", "peers");

    private final Report report;
    private final LineProbe probe;
    private final List<String[]> out = new ArrayList<>(); // {section, text}
    private final Set<String> sluiceKeysSeen = new LinkedHashSet<>();

    Converter(Report report, LineProbe probe) {
        this.report = report;
        this.probe = probe;
    }

    /** The converted text; throws on input PgBouncer itself would reject. */
    String convert(String sourceName, List<SourceLine> lines) throws InputException {
        emit("", "; Sluice configuration written by sluice-migrate from " + sourceName + ".");
        emit("", "; Lines starting with \"" + MARK.strip() + "\" were added or changed by the tool;");
        emit("", "; everything else is carried over from the original, in order, %include files inlined.");
        emit("", "");
        for (SourceLine l : lines) {
            switch (l.kind()) {
                case BLANK, COMMENT -> emit(l.section(), l.text());
                case INCLUDE_BEGIN -> emit(l.section(), MARK + "begin of %include " + l.key() + " (" + l.where() + ")");
                case INCLUDE_END -> emit(l.section(), MARK + "end of %include " + l.key());
                case SECTION -> {
                    if (!SECTIONS.contains(l.section())) {
                        throw new InputException(l.file(), l.line(), "invalid section \"" + l.section() + "\"");
                    }
                    emit(l.section(), l.text());
                }
                case KEY -> key(l);
                default -> throw new IllegalStateException(l.kind().name());
            }
        }
        if (out.stream().noneMatch(o -> o[0].equals("pgbouncer"))) {
            throw new InputException(sourceName, 0, "main section missing from config file");
        }
        insertPressureBlock();
        StringBuilder b = new StringBuilder();
        for (String[] o : out) {
            b.append(o[1]).append('\n');
        }
        return b.toString();
    }

    private void key(SourceLine l) throws InputException {
        if (l.section().isEmpty()) {
            throw new InputException(l.file(), l.line(), "value without section: " + l.key());
        }
        switch (l.section()) {
            case "pgbouncer" -> setting(l);
            case "databases" -> database(l);
            default -> entry(l);
        }
    }

    private void setting(SourceLine l) throws InputException {
        String name = l.key().toLowerCase(Locale.ROOT);
        String renamed = KeyNotes.DEPRECATED_SETTINGS.get(name);
        if (renamed != null) {
            report.add(Severity.WARNING, "deprecated", name, l.where(),
                    name + " is a deprecated name (Windows only in PgBouncer); written as " + renamed);
            emit("pgbouncer", MARK + "deprecated name replaced: " + l.text().strip());
            name = renamed;
        }
        ConfigKey key = ConfigKeys.find(name).orElseThrow(
                () -> new InputException(l.file(), l.line(), "unknown parameter: pgbouncer/" + l.key()));
        if (ValueCodec.parse(key, l.value()).isEmpty()) {
            throw new InputException(l.file(), l.line(),
                    "invalid value \"" + l.value() + "\" for parameter " + key.name());
        }
        if (key.origin() == ConfigKey.Origin.SLUICE) {
            sluiceKeysSeen.add(key.name());
        }
        String dep = KeyNotes.DEPRECATED_VALUES.get(key.name() + "=" + l.value().toLowerCase(Locale.ROOT));
        if (dep != null) {
            report.add(Severity.WARNING, "deprecated", key.name(), l.where(), dep);
        }
        LineProbe.Answer a = probe.setting(key.name(), l.value());
        if (!a.ok()) {
            refused(l, a.error());
            return;
        }
        warnings(l, key.name(), a);
        KeyNotes.meaning(key.name()).ifPresent(n -> report.add(n.severity(), "meaning", key.name(), l.where(), n.text()));
        emit("pgbouncer", renamed != null ? key.name() + " = " + l.value() : l.text());
    }

    private static final Pattern PARAM = Pattern.compile("(^|\\s)([A-Za-z_]+)(\\s*=)");

    private void database(SourceLine l) throws InputException {
        String text = l.text();
        String value = l.value();
        Matcher m = PARAM.matcher(value);
        StringBuilder rewritten = new StringBuilder();
        boolean changed = false;
        while (m.find()) {
            String to = KeyNotes.DEPRECATED_DB_PARAMS.get(m.group(2));
            if (to != null && !insideQuotes(value, m.start(2))) {
                m.appendReplacement(rewritten, Matcher.quoteReplacement(m.group(1) + to + m.group(3)));
                report.add(Severity.WARNING, "deprecated", m.group(2), l.where(), "database parameter "
                        + m.group(2) + " was renamed " + to + " in PgBouncer 1.24; written as " + to);
                changed = true;
            } else {
                m.appendReplacement(rewritten, Matcher.quoteReplacement(m.group()));
            }
        }
        m.appendTail(rewritten);
        if (changed) {
            emit("databases", MARK + "deprecated parameter renamed: " + text.strip());
            text = text.substring(0, text.indexOf('=') + 1) + " " + rewritten;
        }
        LineProbe.Answer a = probe.entry("databases", text);
        if (!a.ok()) {
            if (a.error().startsWith("not supported")) {
                refused(l, a.error());
                return;
            }
            throw new InputException(l.file(), l.line(), a.error());
        }
        warnings(l, "database " + l.key(), a);
        emit("databases", text);
    }

    private void entry(SourceLine l) throws InputException {
        LineProbe.Answer a = probe.entry(l.section(), l.text());
        if (!a.ok()) {
            if (a.error().startsWith("not supported")) {
                refused(l, a.error());
                return;
            }
            throw new InputException(l.file(), l.line(), a.error());
        }
        warnings(l, l.section().replaceAll("s$", "") + " " + l.key(), a);
        emit(l.section(), l.text());
    }

    private void refused(SourceLine l, String why) {
        report.add(Severity.ERROR, "unsupported", l.key(), l.where(),
                why + "; the line is commented out in the output, so Sluice runs without it");
        emit(l.section(), MARK + "NOT CARRIED OVER (" + why + "):");
        emit(l.section(), "; " + l.text().strip());
    }

    private void warnings(SourceLine l, String key, LineProbe.Answer a) {
        for (String w : a.warnings()) {
            report.add(Severity.WARNING, "unsupported", key, l.where(), w);
        }
    }

    private static boolean insideQuotes(String s, int pos) {
        boolean in = false;
        for (int i = 0; i < pos; i++) {
            if (s.charAt(i) == '\'') {
                in = !in;
            }
        }
        return in;
    }

    private void emit(String section, String text) {
        out.add(new String[] {section, text});
    }

    private void insertPressureBlock() {
        int at = 0;
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i)[0].equals("pgbouncer") && !out.get(i)[1].isBlank()) {
                at = i + 1;
            }
        }
        List<String[]> block = new ArrayList<>();
        for (String line : PressureBlock.lines(sluiceKeysSeen)) {
            block.add(new String[] {"pgbouncer", line});
        }
        out.addAll(at, block);
    }
}
