package io.sluice.hosts;

import java.util.ArrayList;
import java.util.List;

/**
 * The lag check query and how its rows read. One query serves primary and replica alike: a
 * {@code self} row (role, the replica's own measure with the quiet-primary correction, its
 * cluster_name) and, on a primary, one {@code standby} row per {@code pg_stat_replication} entry.
 * {@code replay_lag} and the other lag columns need superuser or {@code pg_monitor}.
 */
public final class ProbeRows {
    public static final String SQL = "SELECT 'self', pg_is_in_recovery()::text,"
            + " CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() IS NULL THEN NULL"
            + " WHEN pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn() THEN '0'"
            + " ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::text END,"
            + " CASE WHEN pg_is_in_recovery() THEN GREATEST(0, pg_wal_lsn_diff(pg_last_wal_receive_lsn(),"
            + " pg_last_wal_replay_lsn()))::bigint::text END,"
            + " current_setting('cluster_name')"
            + " UNION ALL SELECT 'standby', host(client_addr), extract(epoch FROM replay_lag)::text,"
            + " pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint::text, application_name"
            + " FROM pg_stat_replication WHERE NOT pg_is_in_recovery()";

    private ProbeRows() {
    }

    /** Reads the query's rows; a shape it does not know is a failed check. */
    public static ProbeResult parse(List<List<String>> rows) {
        List<String> self = null;
        List<ProbeResult.Standby> standbys = new ArrayList<>();
        try {
            for (List<String> r : rows) {
                if (r.size() != 5) {
                    return ProbeResult.failed("unexpected check answer");
                }
                if ("self".equals(r.get(0))) {
                    self = r;
                } else if ("standby".equals(r.get(0))) {
                    standbys.add(new ProbeResult.Standby(r.get(1), r.get(4), dbl(r.get(2)), lng(r.get(3))));
                }
            }
            if (self == null) {
                return ProbeResult.failed("unexpected check answer");
            }
            return new ProbeResult(null, "true".equals(self.get(1)), dbl(self.get(2)), lng(self.get(3)),
                    self.get(4), standbys);
        } catch (NumberFormatException e) {
            return ProbeResult.failed("unexpected check answer: " + e.getMessage());
        }
    }

    private static Double dbl(String s) {
        return s == null ? null : Math.max(0, Double.parseDouble(s));
    }

    private static Long lng(String s) {
        return s == null ? null : Long.parseLong(s);
    }
}
