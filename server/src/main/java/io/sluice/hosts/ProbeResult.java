package io.sluice.hosts;

import java.util.List;

/**
 * What one check query on one host answered, before any judgement.
 *
 * @param error           why the host could not be checked (connect, login or query failed); null when it could
 * @param inRecovery      {@code pg_is_in_recovery()}
 * @param ownLagSeconds   replica's own measure: 0 when received LSN equals replayed LSN (a quiet
 *                        primary is not lag), else {@code now() - pg_last_xact_replay_timestamp()};
 *                        null when unknown
 * @param ownLagBytes     replica: received minus replayed WAL bytes; null when unknown
 * @param clusterName     the host's {@code cluster_name} (how its walreceiver names itself to the primary)
 * @param standbys        primary: its {@code pg_stat_replication} rows
 */
public record ProbeResult(String error, boolean inRecovery, Double ownLagSeconds, Long ownLagBytes,
                          String clusterName, List<Standby> standbys) {
    public ProbeResult {
        standbys = standbys == null ? List.of() : List.copyOf(standbys);
    }

    public static ProbeResult failed(String error) {
        return new ProbeResult(error, false, null, null, null, List.of());
    }

    public boolean reachable() {
        return error == null;
    }

    /**
     * One {@code pg_stat_replication} row as the primary sees it.
     *
     * @param clientAddr      {@code host(client_addr)}, null over a unix socket
     * @param applicationName the walreceiver's application_name
     * @param replayLagSeconds {@code replay_lag}; null once an idle standby has caught up
     * @param lagBytes        {@code pg_current_wal_lsn() - replay_lsn}
     */
    public record Standby(String clientAddr, String applicationName, Double replayLagSeconds, Long lagBytes) {
    }
}
