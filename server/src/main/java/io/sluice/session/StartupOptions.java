package io.sluice.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code options} startup parameter read as PgBouncer 1.25 reads it: a sequence of
 * {@code -c name=value} or {@code --name=value} settings separated by white space, where a
 * backslash makes the next character literal (so {@code -c datestyle=German,\ YMD} keeps its
 * space). Anything else, a setting without {@code =} or a trailing blank included, is refused with
 * PgBouncer's message. Pure: no Netty, no state.
 */
final class StartupOptions {
    static final String REFUSED =
            "unsupported options startup parameter: only '-c config=val' and '--config=val' are allowed";

    /** The settings in order, or {@link #REFUSED} as the error. */
    sealed interface Result {
    }

    record Settings(List<Map.Entry<String, String>> settings) implements Result {
    }

    /** @param warning PgBouncer's WARNING line before it refuses (the key with its value), or null */
    record Refused(String message, String warning) implements Result {
        Refused(String message) {
            this(message, null);
        }
    }

    private StartupOptions() {
    }

    static Result parse(String options) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        int i = 0;
        int n = options.length();
        while (i < n) {
            i = skipBlanks(options, i);
            if (options.startsWith("-c", i)) {
                i = skipBlanks(options, i + 2);
            } else if (options.startsWith("--", i)) {
                i += 2;
            } else {
                return new Refused(REFUSED);
            }
            StringBuilder token = new StringBuilder();
            while (i < n && !isBlank(options.charAt(i))) {
                char c = options.charAt(i++);
                if (c == '\\') {
                    if (i == n) {
                        break;
                    }
                    c = options.charAt(i++);
                }
                token.append(c);
            }
            int eq = token.indexOf("=");
            if (eq < 0) {
                return new Refused(REFUSED);
            }
            out.add(Map.entry(token.substring(0, eq), token.substring(eq + 1)));
        }
        return new Settings(out);
    }

    /**
     * Applies {@code options} to {@code params}: a setting Sluice tracks is taken, one named in
     * ignore_startup_parameters (or any, when {@code options} itself is named there) is dropped, and
     * any other refuses the login. Returns null when the client may go on, else its refusal.
     *
     * @param known     lower-case names the client may set (tracked or otherwise understood)
     * @param ignored   ignore_startup_parameters, lower case
     */
    static Refused apply(String options, ClientParams params, Set<String> known, Set<String> ignored) {
        Result r = parse(options);
        if (r instanceof Refused refused) {
            return refused;
        }
        for (Map.Entry<String, String> e : ((Settings) r).settings()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (known.contains(key) || params.isTracked(key)) {
                params.set(e.getKey(), e.getValue());
            } else if (!ignored.contains(key) && !ignored.contains("options")) {
                return new Refused("unsupported startup parameter in options: " + e.getKey(),
                        "unsupported startup parameter in options: " + e.getKey() + "=" + e.getValue());
            }
        }
        return null;
    }

    private static int skipBlanks(String s, int i) {
        while (i < s.length() && isBlank(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** C's isspace in the "C" locale, which PgBouncer's parser uses. */
    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }
}
