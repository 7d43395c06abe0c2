package io.sluice.hosts;

import io.sluice.config.ServerAddress;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns one round of check answers into a lag per host, in time. A replica's lag comes from the
 * primary's {@code pg_stat_replication} when the primary is one of the hosts and the replica's row
 * can be told apart ({@code replay_lag}: the time from the primary flushing WAL to the replica
 * applying it, so transport lag counts too); otherwise from the replica itself, where received ==
 * replayed means no lag however old the last replayed transaction is (the quiet-primary trap of
 * {@code now() - pg_last_xact_replay_timestamp()}). Bytes ride along for display only.
 */
final class LagJudge {
    private LagJudge() {
    }

    static List<Check> judge(List<ServerAddress> hosts, List<ProbeResult> results) {
        ProbeResult primary = null;
        int replicas = 0;
        for (ProbeResult r : results) {
            if (r.reachable() && !r.inRecovery() && primary == null) {
                primary = r;
            }
            if (r.reachable() && r.inRecovery()) {
                replicas++;
            }
        }
        List<Check> out = new ArrayList<>(hosts.size());
        for (int i = 0; i < hosts.size(); i++) {
            ProbeResult r = results.get(i);
            if (!r.reachable()) {
                out.add(Check.unreachable(r.error()));
            } else if (!r.inRecovery()) {
                out.add(new Check(true, HostRole.PRIMARY, 0, 0, null, null));
            } else {
                ProbeResult.Standby row = primary == null ? null : row(primary.standbys(), hosts.get(i), r, replicas);
                out.add(replica(r, row));
            }
        }
        return out;
    }

    private static Check replica(ProbeResult r, ProbeResult.Standby row) {
        double own = r.ownLagSeconds() == null ? Double.NaN : r.ownLagSeconds();
        long ownBytes = r.ownLagBytes() == null ? -1 : r.ownLagBytes();
        if (row == null) {
            return new Check(true, HostRole.REPLICA, own, ownBytes, "replica", null);
        }
        long bytes = row.lagBytes() == null ? -1 : Math.max(0, row.lagBytes());
        if (row.replayLagSeconds() != null) {
            return new Check(true, HostRole.REPLICA, row.replayLagSeconds(), bytes, "primary", null);
        }
        // replay_lag goes NULL once an idle standby has caught up: nothing outstanding is no lag
        return bytes == 0 ? new Check(true, HostRole.REPLICA, 0, 0, "primary", null)
                : new Check(true, HostRole.REPLICA, own, bytes, "replica", null);
    }

    /** The replica's pg_stat_replication row: by cluster_name, by address, or the only one there is. */
    private static ProbeResult.Standby row(List<ProbeResult.Standby> rows, ServerAddress host, ProbeResult replica,
                                           int replicas) {
        String name = replica.clusterName();
        if (name != null && !name.isEmpty()) {
            List<ProbeResult.Standby> named = rows.stream().filter(s -> name.equals(s.applicationName())).toList();
            if (named.size() == 1) {
                return named.get(0);
            }
        }
        List<ProbeResult.Standby> at = rows.stream().filter(s -> host.host() != null
                && host.host().equals(s.clientAddr())).toList();
        if (at.size() == 1) {
            return at.get(0);
        }
        return rows.size() == 1 && replicas == 1 ? rows.get(0) : null;
    }
}
