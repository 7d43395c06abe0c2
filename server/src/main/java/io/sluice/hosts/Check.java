package io.sluice.hosts;

/**
 * One judged check of one host.
 *
 * @param reachable  the check query ran
 * @param role       what the host is
 * @param lagSeconds replica lag in time; NaN when unknown (a replica with no measure is not trusted)
 * @param lagBytes   replica lag in WAL bytes, shown beside the seconds and never compared; -1 when unknown
 * @param source     where the lag came from: {@code primary} (pg_stat_replication) or {@code replica}
 * @param error      why the host is unreachable; null when reachable
 */
public record Check(boolean reachable, HostRole role, double lagSeconds, long lagBytes, String source,
                    String error) {
    static Check unreachable(String error) {
        return new Check(false, HostRole.UNKNOWN, Double.NaN, -1, null, error);
    }
}
