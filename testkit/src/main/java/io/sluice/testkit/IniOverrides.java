package io.sluice.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a pgbouncer.ini text so a fixture controls where the server listens. PgBouncer
 * applies keys in file order and the last one wins, so: {@code defaults} go right after the
 * {@code [pgbouncer]} header (the caller's own lines override them) and {@code forced} go at
 * the end of that section (they override the caller). A text without the section gets one.
 * sluice-compat edits users' files with the same rules.
 */
public final class IniOverrides {
    private IniOverrides() {}

    /**
     * Writes {@code userlist} (if any) and the rewritten ini into {@code dir} for a server that
     * must listen on 127.0.0.1:{@code port} with its unix socket in {@code dir}; returns the ini.
     */
    static Path writeFixtureConfig(Path dir, String ini, String userlist, int port) {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("unix_socket_dir", dir.toString());
        if (userlist != null) {
            defaults.put("auth_file", TempDir.write(dir.resolve("userlist.txt"), userlist).toString());
        }
        Map<String, String> forced = Map.of("listen_addr", PgCluster.HOST, "listen_port", Integer.toString(port));
        return TempDir.write(dir.resolve("pgbouncer.ini"), apply(ini, defaults, forced));
    }

    static String apply(String ini, Map<String, String> defaults, Map<String, String> forced) {
        return edit(ini, defaults, forced, "; forced by the sluice testkit");
    }

    /** {@code settings} (after a {@code comment} line) at the end of {@code [pgbouncer]}: they win. */
    public static String appendToPgbouncer(String ini, Map<String, String> settings, String comment) {
        return edit(ini, Map.of(), settings, comment);
    }

    private static String edit(String ini, Map<String, String> defaults, Map<String, String> forced,
                               String forcedComment) {
        List<String> lines = new ArrayList<>(ini.lines().toList());
        int header = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equalsIgnoreCase("[pgbouncer]")) {
                header = i;
                break;
            }
        }
        if (header < 0) {
            lines.add("[pgbouncer]");
            header = lines.size() - 1;
        }
        int end = header + 1;
        while (end < lines.size() && !lines.get(end).strip().startsWith("[")) {
            end++;
        }
        lines.addAll(end, render(forced, forcedComment));
        lines.addAll(header + 1, render(defaults, "; defaults from the sluice testkit"));
        return String.join("\n", lines) + "\n";
    }

    private static List<String> render(Map<String, String> settings, String comment) {
        List<String> out = new ArrayList<>();
        if (!settings.isEmpty()) {
            out.add(comment);
            settings.forEach((k, v) -> out.add(k + " = " + v));
        }
        return out;
    }
}
