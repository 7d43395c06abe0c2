package io.sluice.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * PgBouncer 1.25's precedence for pool sizes, limits and pool mode, in one place: a
 * {@code [users]} entry beats its {@code [databases]} entry, which beats {@code [pgbouncer]}.
 * The pooler's pools, the console's SHOW DATABASES/USERS and sluice-migrate's capacity check
 * all resolve through here, so they cannot disagree.
 *
 * <p>What "not set" means follows PgBouncer's code, not just an absent key: a negative
 * pool_size, min_pool_size or reserve_pool_size, and a max_*_connections or server_lifetime
 * of 0 or less, fall through to the next level (so {@code max_db_connections=0} on an entry
 * does not lift a global cap). min_pool_size, server_lifetime and the database caps have no
 * {@code [users]} level; max_user_* have no {@code [databases]} level. Pure.
 */
public final class Precedence {
    private final ConfigSnapshot config;

    Precedence(ConfigSnapshot config) {
        this.config = config;
    }

    /**
     * The effective settings of the pool of {@code db} logged in as {@code poolUser} (the
     * entry's forced user if it has one, else the client's login user; null when no user is
     * known, which leaves the {@code [databases]} and global levels).
     */
    public PoolSizing pool(DatabaseEntry db, String poolUser) {
        Optional<UserEntry> u = Optional.ofNullable(poolUser).map(config.users()::get);
        return new PoolSizing(
                poolMode(db, poolUser),
                atLeastZero(u.map(UserEntry::poolSize), poolSize(db)),
                minPoolSize(db),
                atLeastZero(u.map(UserEntry::reservePoolSize), reservePoolSize(db)),
                serverLifetime(db),
                maxDbConnections(db),
                maxUserConnections(poolUser));
    }

    /** The pool mode of {@code db}'s pool for {@code poolUser} (null: no user known). */
    public PoolMode poolMode(DatabaseEntry db, String poolUser) {
        UserEntry u = poolUser == null ? null : config.users().get(poolUser);
        if (u != null && u.poolMode().isPresent()) {
            return u.poolMode().get();
        }
        return db.poolMode().orElse(config.poolMode());
    }

    /** SHOW DATABASES pool_size: the entry's, else default_pool_size. */
    public int poolSize(DatabaseEntry db) {
        return atLeastZero(Optional.of(db.poolSize()), config.defaultPoolSize());
    }

    public int minPoolSize(DatabaseEntry db) {
        return atLeastZero(Optional.of(db.minPoolSize()), config.minPoolSize());
    }

    public int reservePoolSize(DatabaseEntry db) {
        return atLeastZero(Optional.of(db.reservePoolSize()), config.reservePoolSize());
    }

    public Duration serverLifetime(DatabaseEntry db) {
        return db.serverLifetime().filter(d -> d.compareTo(Duration.ZERO) > 0).orElse(config.serverLifetime());
    }

    public int maxDbConnections(DatabaseEntry db) {
        return positive(Optional.of(db.maxDbConnections()), config.maxDbConnections());
    }

    public int maxDbClientConnections(DatabaseEntry db) {
        return positive(Optional.of(db.maxDbClientConnections()),
                config.settings().intValue("max_db_client_connections"));
    }

    /** {@code user}'s max_user_connections, else the global one; null user: the global one. */
    public int maxUserConnections(String user) {
        return positive(Optional.ofNullable(user).map(config.users()::get).map(UserEntry::maxUserConnections),
                config.maxUserConnections());
    }

    public int maxUserClientConnections(String user) {
        return positive(Optional.ofNullable(user).map(config.users()::get)
                .map(UserEntry::maxUserClientConnections), config.settings().intValue("max_user_client_connections"));
    }

    private static int atLeastZero(Optional<OptionalInt> own, int inherited) {
        OptionalInt v = own.orElse(OptionalInt.empty());
        return v.isPresent() && v.getAsInt() >= 0 ? v.getAsInt() : inherited;
    }

    private static int positive(Optional<OptionalInt> own, int inherited) {
        OptionalInt v = own.orElse(OptionalInt.empty());
        return v.isPresent() && v.getAsInt() > 0 ? v.getAsInt() : inherited;
    }
}
