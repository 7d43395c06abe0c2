package io.sluice.hosts;

import io.sluice.config.ReplicaChecks;
import io.sluice.config.ServerAddress;
import io.sluice.util.Clock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Checks the hosts of every database with {@code max_replica_lag} set, one round per
 * {@code replica_check_interval} (a round waits for its slowest answer), and says which hosts
 * may take new server connections: the replicas in service; when none is, the primary
 * ({@code replica_fallback = primary}) or nobody ({@code error}); before the first round
 * tells roles apart, every host. Time and probes come in from outside. Event loop only.
 */
public final class ReplicaMonitor {
    /** Port: runs the check query on one host and answers exactly once, also on failure or timeout. */
    @FunctionalInterface
    public interface Probe {
        void check(String database, ServerAddress host, Consumer<ProbeResult> done);
    }

    /**
     * Told when a host stops taking new server connections (a replica over its limit or down, the
     * primary when a replica is back), so its idle servers close and busy ones close at release.
     */
    @FunctionalInterface
    public interface Listener {
        void leftService(String database, ServerAddress host);
    }

    /** What to check for one database: its hosts and its keys. */
    public record Spec(List<ServerAddress> hosts, ReplicaChecks checks) {
    }

    private static final class Db {
        Spec spec;
        final Map<ServerAddress, HostHealth> health = new LinkedHashMap<>();
        long nextAt;
        boolean inFlight;
        long round;

        Db(Spec spec, long now) {
            this.spec = spec;
            this.nextAt = now;
            spec.hosts().forEach(h -> health.put(h, new HostHealth(h)));
        }
    }

    private final Probe probe;
    private final Listener listener;
    private final Clock clock;
    private final LongSupplier wallMillis;
    private final Map<String, Db> dbs = new LinkedHashMap<>();

    public ReplicaMonitor(Probe probe, Listener listener, Clock clock, LongSupplier wallMillis) {
        this.probe = probe;
        this.listener = listener;
        this.clock = clock;
        this.wallMillis = wallMillis;
    }

    /** Follows the config ({@code specs}: databases with checks on) and starts the rounds that are due. */
    public void tick(Map<String, Spec> specs) {
        long now = clock.nanoTime();
        dbs.keySet().retainAll(specs.keySet());
        specs.forEach((name, spec) -> {
            Db d = dbs.get(name);
            if (d == null || !d.spec.hosts().equals(spec.hosts())) {
                d = new Db(spec, now);
                dbs.put(name, d);
            }
            d.spec = spec;
            if (!d.inFlight && now - d.nextAt >= 0) {
                startRound(name, d, now);
            }
        });
    }

    private void startRound(String name, Db d, long now) {
        d.inFlight = true;
        d.nextAt = now + d.spec.checks().interval().toNanos();
        long round = ++d.round;
        List<ServerAddress> hosts = d.spec.hosts();
        ProbeResult[] results = new ProbeResult[hosts.size()];
        int[] missing = {hosts.size()};
        for (int i = 0; i < hosts.size(); i++) {
            int k = i;
            probe.check(name, hosts.get(i), r -> {
                if (results[k] == null) {
                    results[k] = r;
                    if (--missing[0] == 0) {
                        finish(name, d, round, Arrays.asList(results));
                    }
                }
            });
        }
    }

    private void finish(String name, Db d, long round, List<ProbeResult> results) {
        if (dbs.get(name) != d || d.round != round) {
            return; // the database changed while its round ran
        }
        d.inFlight = false;
        List<ServerAddress> hosts = d.spec.hosts();
        List<Check> checks = LagJudge.judge(hosts, results);
        long wall = wallMillis.getAsLong();
        boolean[] before = new boolean[hosts.size()];
        for (int i = 0; i < hosts.size(); i++) {
            before[i] = inService(name, hosts.get(i));
        }
        for (int i = 0; i < hosts.size(); i++) {
            d.health.get(hosts.get(i)).record(checks.get(i), d.spec.checks(), wall);
        }
        // a lagging replica, and the primary once a replica is back: their servers drain
        for (int i = 0; i < hosts.size(); i++) {
            if (before[i] && !inService(name, hosts.get(i))) {
                listener.leftService(name, hosts.get(i));
            }
        }
    }

    /** May {@code host} of {@code database} take a new server connection now. */
    public boolean inService(String database, ServerAddress host) {
        Db d = dbs.get(database);
        if (d == null) {
            return true; // no checks for this database: PgBouncer's plain host list
        }
        HostHealth h = d.health.get(host);
        if (h == null) {
            return true;
        }
        boolean replicaUp = false;
        boolean rolesKnown = false;
        for (HostHealth o : d.health.values()) {
            replicaUp |= o.role() == HostRole.REPLICA && o.state() == HostState.UP;
            rolesKnown |= o.role() != HostRole.UNKNOWN;
        }
        if (replicaUp) {
            return h.role() == HostRole.REPLICA && h.state() == HostState.UP;
        }
        if (!rolesKnown) {
            return h.state() == HostState.UP;
        }
        return d.spec.checks().fallback() == ReplicaChecks.Fallback.PRIMARY
                && h.role() == HostRole.PRIMARY && h.state() == HostState.UP;
    }

    /** The hosts of {@code database} (empty when it has no checks), in host list order. */
    public List<HostHealth> hosts(String database) {
        Db d = dbs.get(database);
        return d == null ? List.of() : List.copyOf(d.health.values());
    }

    /** Databases with checks, in config order. */
    public List<String> databases() {
        return new ArrayList<>(dbs.keySet());
    }
}
