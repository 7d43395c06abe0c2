package io.sluice.pool.evict;

import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PoolSettings;
import io.sluice.pool.PoolSnapshot;
import io.sluice.pool.ScalingSnapshot;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.coord.Coordinator;
import io.sluice.pool.coord.CoordinatorSnapshot;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Clock;
import io.sluice.util.Randomness;
import io.sluice.util.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * All pools of the process, created on demand from a settings resolver, with the shared
 * per-database (max_db_connections) and per-user (max_user_connections) caps, maintenance
 * ({@link #tick}), RECONNECT, reload and the console's iteration. Engine thread only.
 *
 * <p>A database whose first pool is created with max_db_connections &gt; 0 gets a
 * {@link Coordinator} (coordinator mode) instead of the plain database cap; the mode of a
 * database is fixed for the life of the process (reload changes the numbers, not the mode).
 */
public final class PoolRegistry {
    /** PgBouncer's reason for closing the servers of a reconnected database. */
    private static final String CONFIG_CHANGED = "database configuration changed";
    private static final Comparator<Pool> SHOW_ORDER = Comparator.comparing(Pool::key, PoolKey.SHOW_ORDER);

    private final Function<PoolKey, PoolSettings> settingsFor;
    private final ServerConnector connector;
    private final PoolEvents events;
    private final Clock clock;
    private final Scheduler scheduler;
    private final Randomness random;
    private final Janitor janitor = new Janitor();
    private final Map<PoolKey, Pool> pools = new HashMap<>();
    private final Map<String, ConnectionLimit> databaseLimits = new HashMap<>();
    private final Map<String, ConnectionLimit> userLimits = new HashMap<>();
    private final Map<String, Coordinator> coordinators = new HashMap<>();
    private final Set<String> plainDatabases = new HashSet<>();
    private final PoolEvictionSource evictionSource;
    private final PoolDrain drain;

    public PoolRegistry(Function<PoolKey, PoolSettings> settingsFor, ServerConnector connector, PoolEvents events,
                        Clock clock, Scheduler scheduler, Randomness random) {
        this.settingsFor = settingsFor;
        this.connector = connector;
        this.drain = new PoolDrain(events, this::pools, scheduler);
        this.events = drain;
        this.clock = clock;
        this.scheduler = scheduler;
        this.random = random;
        this.evictionSource = new PoolEvictionSource(this::pools, clock);
    }

    /** The pool for {@code key}, created with the resolver's settings on first use. */
    public Pool pool(PoolKey key) {
        Pool p = pools.get(key);
        if (p == null) {
            PoolSettings s = settingsFor.apply(key);
            ConnectionLimit user = userLimit(key.user());
            user.setMax(s.maxUserConnections());
            Coordinator coordinator = coordinatorFor(key.database(), s);
            ConnectionLimit db = databaseLimit(key.database());
            if (coordinator == null) {
                db.setMax(s.maxDbConnections());
            }
            p = new Pool(key, s, connector, events, db, user, coordinator, clock, scheduler, random);
            pools.put(key, p);
        }
        return p;
    }

    public Optional<Pool> find(PoolKey key) {
        return Optional.ofNullable(pools.get(key));
    }

    /** The pool of {@code key}, or null: for the per-transaction paths, which allocate nothing. */
    public Pool get(PoolKey key) {
        return pools.get(key);
    }

    /** Pools ordered by database, then user (a copy). */
    public List<Pool> pools() {
        List<Pool> list = new ArrayList<>(pools.values());
        list.sort(SHOW_ORDER);
        return list;
    }

    private Coordinator coordinatorFor(String database, PoolSettings s) {
        Coordinator c = coordinators.get(database);
        if (c == null && s.maxDbConnections() > 0 && !plainDatabases.contains(database)) {
            c = new Coordinator(database, s.maxDbConnections(), s.dbReservePoolSize(), s.dbReservePoolTimeout(),
                    s.minConnectionLifetime(), evictionSource, clock, scheduler);
            coordinators.put(database, c);
        } else if (c == null) {
            plainDatabases.add(database);
        } else {
            c.update(s.maxDbConnections(), s.dbReservePoolSize(), s.dbReservePoolTimeout(), s.minConnectionLifetime());
        }
        return c;
    }

    /** The coordinator of {@code database}, if it runs in coordinator mode. */
    public Optional<Coordinator> coordinator(String database) {
        return Optional.ofNullable(coordinators.get(database));
    }

    /** SHOW POOL_COORDINATOR / metrics: one snapshot per coordinated database, by name. */
    public List<CoordinatorSnapshot> coordinators() {
        List<CoordinatorSnapshot> out = new ArrayList<>();
        coordinators.values().forEach(c -> out.add(c.snapshot()));
        out.sort(Comparator.comparing(CoordinatorSnapshot::database));
        return out;
    }

    public ConnectionLimit databaseLimit(String database) {
        return databaseLimits.computeIfAbsent(database, d -> ConnectionLimit.unlimited("database " + d));
    }

    public ConnectionLimit userLimit(String user) {
        return userLimits.computeIfAbsent(user, u -> ConnectionLimit.unlimited("user " + u));
    }

    /** Janitor pass over every pool; call about once a second. */
    public void tick() {
        tick(key -> true);
    }

    /**
     * Janitor pass over every pool; pools whose key fails {@code mayGrow} (a paused database,
     * a shutdown) are not topped up to min_pool_size, as PgBouncer fills only when not paused.
     */
    public void tick(Predicate<PoolKey> mayGrow) {
        long now = clock.nanoTime();
        for (Pool p : pools()) {
            janitor.tick(p, now, mayGrow.test(p.key()));
        }
    }

    /** Re-resolves every pool's settings (config RELOAD); limits follow the new values. */
    public void reload() {
        for (Pool p : pools()) {
            PoolSettings s = settingsFor.apply(p.key());
            Coordinator c = coordinators.get(p.key().database());
            if (c != null) {
                c.update(s.maxDbConnections(), s.dbReservePoolSize(), s.dbReservePoolTimeout(),
                        s.minConnectionLifetime());
            } else {
                databaseLimit(p.key().database()).setMax(s.maxDbConnections());
            }
            userLimit(p.key().user()).setMax(s.maxUserConnections());
            p.updateSettings(s);
        }
    }

    public void reconnectAll() {
        for (Pool p : pools()) {
            p.reconnect(CONFIG_CHANGED, true);
        }
    }

    /** RECONNECT db: returns how many pools were affected. */
    public int reconnect(String database) {
        int n = 0;
        for (Pool p : pools()) {
            if (p.key().database().equals(database)) {
                p.reconnect(CONFIG_CHANGED, true);
                n++;
            }
        }
        return n;
    }

    /**
     * A database left the config (RELOAD): its pools close at once (idle servers now, lent ones
     * when they come back, waiters answered with {@code reason}) and leave the registry.
     * Returns how many pools there were.
     */
    public int remove(String database, String reason) {
        int n = 0;
        for (Pool p : pools()) {
            if (p.key().database().equals(database)) {
                p.closeAll(reason);
                pools.remove(p.key());
                n++;
            }
        }
        coordinators.remove(database);
        plainDatabases.remove(database);
        return n;
    }

    public void closeAll(String reason) {
        for (Pool p : pools()) {
            p.closeAll(reason);
        }
    }

    /**
     * PAUSE: completes once no pool of {@code database} (all pools when null) has a server lent
     * out or probing, a connect in flight or a checkout queued. Event-driven, no polling;
     * completing or cancelling the result from outside ends the wait.
     */
    public CompletableFuture<Void> awaitQuiet(String database) {
        return drain.await(key -> database == null || key.database().equals(database), PoolDrain::quiet);
    }

    /** SHUTDOWN WAIT_FOR_SERVERS: completes once no pool has a server lent out. */
    public CompletableFuture<Void> awaitNoneLent() {
        return drain.await(key -> true, PoolDrain::noneLent);
    }

    public List<PoolSnapshot> snapshots() {
        List<PoolSnapshot> out = new ArrayList<>();
        for (Pool p : pools()) {
            out.add(p.snapshot());
        }
        return out;
    }

    public List<ScalingSnapshot> scaling() {
        List<ScalingSnapshot> out = new ArrayList<>();
        for (Pool p : pools()) {
            out.add(p.scaling());
        }
        return out;
    }
}
