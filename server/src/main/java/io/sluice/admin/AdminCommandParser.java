package io.sluice.admin;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PgBouncer's console grammar, case-insensitive: {@code WORD [WORD] [;]} where WORD is
 * {@code [0-9a-z_]+} or a double-quoted identifier ({@code ""} inside means {@code "}), and
 * {@code SET key (=|TO) value} with a WORD or a single-quoted string ({@code ''} inside means
 * {@code '}). Anything else: {@code invalid command '<query>', use SHOW HELP;}.
 *
 * <p>Like PgBouncer, a command word of 16+ bytes, an argument or SET key of 64+ bytes or a SET
 * value of 256+ bytes (counted with their quotes) gives "bad arguments", as does an empty SET key.
 * Stateless and thread-safe.
 */
public final class AdminCommandParser {

    private static final String WS0 = "[ \\t\\n\\r]*";
    private static final String WS1 = "[ \\t\\n\\r]+";
    // Possessive repetition keeps matching linear; giving back a "" pair could never help,
    // because nothing in the grammar may follow a closing quote directly with another quote.
    private static final String WORD = "(\"(?:[^\"]|\"\")*+\"|[0-9a-z_]+)";
    private static final String STRING = "('(?:[^']|'')*+')";
    private static final String END = WS0 + "(?:;" + WS0 + ")?\\z";

    private static final Pattern NORMAL =
            Pattern.compile("\\A" + WS0 + WORD + "(?:" + WS1 + WORD + ")?" + END, Pattern.CASE_INSENSITIVE);
    private static final Pattern SET_WORD = Pattern.compile(
            "\\A" + WS0 + "set" + WS1 + WORD + WS0 + "(?:=|to)" + WS0 + WORD + END, Pattern.CASE_INSENSITIVE);
    private static final Pattern SET_STRING = Pattern.compile(
            "\\A" + WS0 + "set" + WS1 + WORD + WS0 + "(?:=|to)" + WS0 + STRING + END, Pattern.CASE_INSENSITIVE);

    /** Buffer sizes in admin_parse_query: a group must be shorter than these, in bytes. */
    private static final int CMD_MAX = 16;
    private static final int ARG_MAX = 64;
    private static final int VAL_MAX = 256;

    public ParsedCommand parse(String query) {
        Matcher m = NORMAL.matcher(query);
        if (m.matches()) {
            String cmd = copyArg(m.group(1), CMD_MAX, '"');
            String arg = copyArg(m.group(2), ARG_MAX, '"');
            if (cmd == null || arg == null) {
                return new ParsedCommand.Invalid(AdminErrors.badArguments());
            }
            return new ParsedCommand.Command(cmd, arg);
        }
        m = SET_STRING.matcher(query);
        if (m.matches()) {
            return set(m, '\'');
        }
        m = SET_WORD.matcher(query);
        if (m.matches()) {
            return set(m, '"');
        }
        return new ParsedCommand.Invalid(AdminErrors.invalidCommand(query));
    }

    private static ParsedCommand set(Matcher m, char valueQuote) {
        String key = copyArg(m.group(1), ARG_MAX, '"');
        if (key == null || key.isEmpty()) {
            return new ParsedCommand.Invalid(AdminErrors.badArguments());
        }
        String value = copyArg(m.group(2), VAL_MAX, valueQuote);
        if (value == null) {
            return new ParsedCommand.Invalid(AdminErrors.badArguments());
        }
        return new ParsedCommand.SetCommand(key, value);
    }

    /**
     * PgBouncer's copy_arg: an absent group is "", a group of {@code max} bytes or more is an
     * error (null), a group starting with {@code quote} loses its quotes and doubled quotes.
     */
    private static String copyArg(String group, int max, char quote) {
        if (group == null) {
            return "";
        }
        if (group.getBytes(StandardCharsets.UTF_8).length >= max) {
            return null;
        }
        if (group.isEmpty() || group.charAt(0) != quote) {
            return group;
        }
        StringBuilder sb = new StringBuilder(group.length());
        for (int i = 1; i < group.length() - 1; i++) {
            if (group.charAt(i) == quote && group.charAt(i + 1) == quote) {
                i++;
            }
            sb.append(group.charAt(i));
        }
        return sb.toString();
    }
}
