package io.sluice.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A systemd unit file read as systemd reads its simple form: {@code [Section]} headers,
 * {@code Key=value} lines (a key may repeat), {@code #} and {@code ;} comments. Enough to check
 * a unit's settings and run its Exec lines where systemd is not PID 1.
 */
public final class SystemdUnit {
    private final Map<String, Map<String, List<String>>> sections = new LinkedHashMap<>();

    private SystemdUnit() {}

    public static SystemdUnit parse(String text) {
        SystemdUnit unit = new SystemdUnit();
        Map<String, List<String>> current = null;
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                current = unit.sections.computeIfAbsent(line.substring(1, line.length() - 1),
                        k -> new LinkedHashMap<>());
                continue;
            }
            int eq = line.indexOf('=');
            if (current == null || eq < 1) {
                throw new IllegalArgumentException("not a unit file line: " + raw);
            }
            current.computeIfAbsent(line.substring(0, eq).strip(), k -> new ArrayList<>())
                    .add(line.substring(eq + 1).strip());
        }
        return unit;
    }

    /** The value that counts (the last one), if the key is set. */
    public Optional<String> get(String section, String key) {
        List<String> values = all(section, key);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(values.size() - 1));
    }

    /** The value that counts, or an AssertionError naming what is missing. */
    public String require(String section, String key) {
        return get(section, key).orElseThrow(() -> new AssertionError("unit has no " + key + "= in [" + section + "]"));
    }

    public List<String> all(String section, String key) {
        return sections.getOrDefault(section, Map.of()).getOrDefault(key, List.of());
    }
}
