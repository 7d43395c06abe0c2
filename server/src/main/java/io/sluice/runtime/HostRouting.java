package io.sluice.runtime;

import io.sluice.backend.BackendTarget;
import io.sluice.backend.ScramKeyCache;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.ServerAddress;
import io.sluice.hosts.HostBalancer;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;

import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Where each new server connection of a pool goes: the host the {@link HostBalancer} picks among
 * the entry's hosts that are in service, and the connect outcome fed back to it (PgBouncer's
 * last_connect_failed). Event loop only.
 */
final class HostRouting {
    private final HostBalancer<PoolKey> balancer = new HostBalancer<>();
    private final Supplier<Routing> routing;
    private final ScramKeyCache scramKeys;
    private final BiFunction<String, String, String> queried;
    /** (database, host): may the host take a new server connection now (the replica lag checks). */
    private BiPredicate<String, ServerAddress> inService = (db, host) -> true;

    HostRouting(Supplier<Routing> routing, ScramKeyCache scramKeys, BiFunction<String, String, String> queried) {
        this.routing = routing;
        this.scramKeys = scramKeys;
        this.queried = queried;
    }

    void serviceCheck(BiPredicate<String, ServerAddress> check) {
        this.inService = check;
    }

    /** The target of the pool's next server connection; throws {@link BackendTarget.Unavailable} when none is in service. */
    BackendTarget next(PoolKey key) {
        Routing r = routing.get();
        DatabaseEntry e = r.entry(key);
        Predicate<ServerAddress> ok = a -> inService.test(key.database(), a);
        ServerAddress at = balancer.pick(key, e.addresses(), e.loadBalanceHosts(), ok)
                .orElseThrow(() -> new BackendTarget.Unavailable("no replica of database \"" + key.database()
                        + "\" is within max_replica_lag (replica_fallback = error)"));
        return r.target(key, at, scramKeys, queried);
    }

    /** The same login, at a given host: what a lag check uses. */
    BackendTarget at(PoolKey key, ServerAddress host) {
        return routing.get().target(key, host, scramKeys, queried);
    }

    /** {@code connector} with each outcome reported to the balancer first. */
    ServerConnector tracking(ServerConnector connector) {
        return (key, callback) -> connector.connect(key, new ServerConnector.Callback() {
            @Override
            public void connected(ServerHandle server) {
                balancer.connected(key);
                callback.connected(server);
            }

            @Override
            public void failed(String sqlState, String message) {
                balancer.failed(key);
                callback.failed(sqlState, message);
            }

            @Override
            public void rejected(String sqlState, String message) {
                balancer.failed(key);
                callback.rejected(sqlState, message);
            }
        });
    }
}
