package io.sluice.compat;

import io.sluice.testkit.IniOverrides;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Small reads and edits of a pgbouncer.ini text, enough to run a user's file side by side: set
 * keys at the end of {@code [pgbouncer]} (last one wins, as in PgBouncer), make relative file
 * paths absolute, and read the {@code [databases]} connect strings. Stateless.
 */
final class IniText {
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s*([A-Za-z0-9_.*\"-]+)\\s*=\\s*(.*?)\\s*$");
    private static final Pattern CONN_PAIR = Pattern.compile("([a-z_]+)\\s*=\\s*('(?:[^']|'')*'|\\S+)");

    private IniText() {}

    /** The ini text with {@code settings} appended to its {@code [pgbouncer]} section. */
    static String setInPgbouncer(String ini, Map<String, String> settings) {
        return IniOverrides.appendToPgbouncer(ini, settings, "; set by sluice-compat");
    }

    /** The value of a key in a section (last one wins), or null. */
    static String get(String ini, String section, String key) {
        String value = null;
        for (Map.Entry<String, String> e : section(ini, section).entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                value = e.getValue();
            }
        }
        return value;
    }

    /** The key = value lines of a section, in order (a later duplicate replaces the earlier). */
    static Map<String, String> section(String ini, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean in = false;
        for (String line : ini.lines().toList()) {
            String s = line.strip();
            if (s.startsWith("[")) {
                in = s.equalsIgnoreCase("[" + name + "]");
                continue;
            }
            if (!in || s.isEmpty() || s.startsWith(";") || s.startsWith("#")) {
                continue;
            }
            Matcher m = KEY_VALUE.matcher(s);
            if (m.matches()) {
                out.put(m.group(1), m.group(2));
            }
        }
        return out;
    }

    /** A database connect string's pairs (host=..., port=...), quotes removed. */
    static Map<String, String> connString(String value) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = CONN_PAIR.matcher(value);
        while (m.find()) {
            String v = m.group(2);
            if (v.startsWith("'")) {
                v = v.substring(1, v.length() - 1).replace("''", "'");
            }
            out.put(m.group(1), v);
        }
        return out;
    }

    /** Relative paths resolved against the directory PgBouncer would use (the working dir). */
    static String absolute(String path, Path cwd) {
        if (path == null || path.isEmpty() || path.startsWith("/")) {
            return path;
        }
        return cwd.resolve(path).normalize().toString();
    }

    /**
     * Refuses a config whose databases point anywhere but this machine: the comparison sends
     * load, and load goes only to loopback or a unix socket.
     */
    static void requireLoopbackDatabases(String ini) {
        for (Map.Entry<String, String> db : section(ini, "databases").entrySet()) {
            String host = connString(db.getValue()).get("host");
            if (host == null || host.isEmpty()) {
                continue;
            }
            for (String h : host.split(",")) {
                if (!isLoopbackOrSocket(h.strip())) {
                    throw new IllegalArgumentException("database '" + db.getKey() + "' points at host " + h
                            + ": sluice-compat sends load only to loopback (127.0.0.0/8, ::1) or a unix socket");
                }
            }
        }
    }

    static boolean isLoopbackOrSocket(String host) {
        if (host.startsWith("/")) {
            return true;
        }
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
