package io.sluice.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one table the metric table reads that no SHOW command answers: pinned clients per pool,
 * counted from SHOW PINNED_CLIENTS (one row per client) over the pools of SHOW POOLS, so that a
 * pool without pins has a series at 0 rather than none. Pure.
 */
final class PinnedPerPool {
    /** Name under which the derived table is added for {@link Families}. */
    static final String TABLE = "PINNED_PER_POOL";

    private PinnedPerPool() {
    }

    /** {@code tables} plus {@link #TABLE} (columns database, user, pinned) when POOLS is among them. */
    static Map<String, ShowTable> with(Map<String, ShowTable> tables) {
        ShowTable pools = tables.get("POOLS");
        if (pools == null) {
            return tables;
        }
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        for (List<String> row : pools.rows()) {
            counts.put(List.of(cell(pools, row, "database"), cell(pools, row, "user")), 0);
        }
        ShowTable pinned = tables.get("PINNED_CLIENTS");
        if (pinned != null) {
            for (List<String> row : pinned.rows()) {
                counts.merge(List.of(cell(pinned, row, "database"), cell(pinned, row, "user")), 1, Integer::sum);
            }
        }
        List<List<String>> rows = new ArrayList<>();
        counts.forEach((pool, n) -> rows.add(List.of(pool.get(0), pool.get(1), String.valueOf(n))));
        Map<String, ShowTable> out = new HashMap<>(tables);
        out.put(TABLE, new ShowTable(List.of("database", "user", "pinned"), rows));
        return out;
    }

    private static String cell(ShowTable t, List<String> row, String column) {
        int i = t.column(column);
        String v = i < 0 ? null : row.get(i);
        return v == null ? "" : v;
    }
}
