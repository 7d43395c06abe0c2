package io.sluice.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a pgbouncer.ini text so a fixture controls where the server listens. PgBouncer
 * applies keys in file order and the last one wins, so: {@code defaults} go right after the
 * {@code [pgbouncer]} header (the caller's own lines override them) and {@code forced} go at
 * the end of that section (they override the caller). A text without the section gets one.
 */
final class IniOverrides {
    private IniOverrides() {}

    static String apply(String ini, Map<String, String> defaults, Map<String, String> forced) {
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
        lines.addAll(end, render(forced, "; forced by the sluice testkit"));
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
