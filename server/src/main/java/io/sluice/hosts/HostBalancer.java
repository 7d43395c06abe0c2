package io.sluice.hosts;

import io.sluice.config.LoadBalanceHosts;
import io.sluice.config.ServerAddress;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Picks the host of each new server connection of a pool, as PgBouncer's {@code dns_connect}:
 * one counter per pool; {@code round-robin} takes host {@code counter % n} and moves on,
 * {@code disable} stays on that host and moves on only when the pool's last connect failed.
 * Hosts out of service (lag checks) are skipped the same way a failed one is. Event loop only.
 *
 * @param <K> the pool key
 */
public final class HostBalancer<K> {
    private static final class Cursor {
        long counter;
        boolean lastConnectFailed;
    }

    private final Map<K, Cursor> cursors = new HashMap<>();

    /** The host for the pool's next server connection; empty when no host is in service. */
    public Optional<ServerAddress> pick(K pool, List<ServerAddress> hosts, LoadBalanceHosts mode,
                                        Predicate<ServerAddress> inService) {
        if (hosts.size() == 1) {
            return inService.test(hosts.get(0)) ? Optional.of(hosts.get(0)) : Optional.empty();
        }
        Cursor c = cursors.computeIfAbsent(pool, k -> new Cursor());
        if (mode == LoadBalanceHosts.DISABLE && c.lastConnectFailed) {
            c.counter++; // the flag stays until a login succeeds: every new connect moves on meanwhile
        }
        int n = hosts.size();
        for (int tried = 0; tried < n; tried++) {
            ServerAddress a = hosts.get((int) Math.floorMod(c.counter, (long) n));
            if (inService.test(a)) {
                if (mode == LoadBalanceHosts.ROUND_ROBIN) {
                    c.counter++;
                }
                return Optional.of(a);
            }
            c.counter++;
        }
        return Optional.empty();
    }

    /** A server connection of the pool logged in: PgBouncer clears last_connect_failed. */
    public void connected(K pool) {
        Cursor c = cursors.get(pool);
        if (c != null) {
            c.lastConnectFailed = false;
        }
    }

    /** A connect or login of the pool failed: with {@code disable} the next one tries the next host. */
    public void failed(K pool) {
        cursors.computeIfAbsent(pool, k -> new Cursor()).lastConnectFailed = true;
    }
}
