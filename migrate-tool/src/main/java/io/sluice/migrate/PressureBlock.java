package io.sluice.migrate;

import io.sluice.config.ConfigKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pool-pressure settings written out explicitly in a converted file, each with a comment
 * saying what it does. Values are Sluice's defaults, so the converted file behaves exactly as
 * the original would under Sluice; the report recommends changes where the capacity rules
 * say so. Keys the source already sets are left alone. Stateless.
 */
final class PressureBlock {

    /** Key to its explanation, in the order they are written. */
    private static final Map<String, String> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("scaling_warm_pool_ratio", "A pool below this % of its pool_size opens connections at once; above "
                + "it a client first waits briefly for a connection a neighbour is returning.");
        KEYS.put("scaling_fast_retries", "How many times a checkout re-tries the idle queue in a tight loop "
                + "(no sleep) before it queues for a returned connection.");
        KEYS.put("scaling_max_parallel_creates", "At most this many connects in flight per pool. Keep it <= "
                + "pool_size/4 of the smallest pool and <= (max_connections - superuser_reserved_connections) "
                + "/ (10 x pools); `sluice-migrate check` computes both.");
        KEYS.put("retain_connections_time", "Seconds between background cycles that top pools up to "
                + "min_pool_size and hand reserve permits back.");
        KEYS.put("min_connection_lifetime", "With max_db_connections: a pool at most one connection bigger "
                + "than the one that needs room keeps an idle connection until it has been idle this long "
                + "(a pool two or more bigger gives one up at once, as PgBouncer does).");
        KEYS.put("min_guaranteed_pool_size", "With max_db_connections: connections per user pool that are "
                + "never evicted for another user's pool.");
    }

    private PressureBlock() {
    }

    /** The names, in order. */
    static Set<String> keys() {
        return KEYS.keySet();
    }

    /** The commented block, without keys in {@code alreadySet}; empty when all are set. */
    static List<String> lines(Set<String> alreadySet) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : KEYS.entrySet()) {
            if (alreadySet.contains(e.getKey())) {
                continue;
            }
            if (out.isEmpty()) {
                out.add("");
                out.add(Converter.MARK + "pool pressure (Sluice only; PgBouncer has no such keys).");
                out.add(Converter.MARK + "Sluice's defaults, written out so they are visible; see the report.");
            }
            out.add(";; " + e.getValue());
            out.add(e.getKey() + " = " + ConfigKeys.get(e.getKey()).defaultValue());
        }
        if (!out.isEmpty()) {
            out.add("");
        }
        return out;
    }
}
