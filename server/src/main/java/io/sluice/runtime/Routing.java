package io.sluice.runtime;

import io.sluice.auth.AuthMethod;
import io.sluice.backend.BackendCredentials;
import io.sluice.backend.BackendTarget;
import io.sluice.backend.ScramKeyCache;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.PoolSizing;
import io.sluice.config.ServerAddress;
import io.sluice.config.Precedence;
import io.sluice.config.UserEntry;
import io.sluice.config.userlist.Secret;
import io.sluice.net.TcpTuning;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PoolSettings;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.session.Route;
import io.sluice.session.RouteLookup;
import io.sluice.session.SessionSettings;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * Turns one config snapshot into what the engine and the sessions need: a client's route (forced
 * user, pool mode, the per-user timeouts), a pool's settings (sizes and caps resolved by
 * {@link Precedence}), where and with which secret a pool's servers log in. Pure: no state
 * besides the snapshot.
 */
public final class Routing {
    public static final String CONSOLE_DB = "pgbouncer";

    private final ConfigSnapshot config;
    /** What every route takes from [pgbouncer], read once per snapshot: a login only looks up its entries. */
    private final Route defaults;
    /** The socket options of every accepted client and new server, read once per snapshot too. */
    private final TcpTuning tcpTuning;
    /**
     * Routes found, by database and user: a login resolves its route from a dozen settings, and
     * the next login of the same pair gets the same answer from this snapshot. Bounded, since
     * clients choose the names they send; past the bound, routes are resolved each time.
     */
    private final Map<RouteKey, RouteLookup> found = new ConcurrentHashMap<>();

    /**
     * Written out rather than left to the record: a record's generated equals and hashCode are
     * bound on first call by spinning method-handle classes (21 of them here, in the middle of a
     * fresh process's first login, while every other client waits on the loop).
     */
    private record RouteKey(String database, String user) {
        @Override
        public boolean equals(Object o) {
            return o instanceof RouteKey k && Objects.equals(database, k.database) && Objects.equals(user, k.user);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(database) + Objects.hashCode(user);
        }
    }

    static final int ROUTES_KEPT = 4096;

    public Routing(ConfigSnapshot config) {
        this.config = config;
        var s = config.settings();
        this.defaults = new Route(null, config.poolMode(), config.serverResetQuery(),
                s.flag("server_reset_query_always"),
                s.nanos("query_timeout"), s.nanos("idle_transaction_timeout"),
                s.nanos("client_idle_timeout"), s.nanos("transaction_timeout"),
                s.intValue("max_db_client_connections"), s.intValue("max_user_client_connections"),
                s.intValue("max_prepared_statements"), s.intValue("max_pinned_servers"));
        this.tcpTuning = TcpTuning.from(s);
    }

    public ConfigSnapshot config() {
        return config;
    }

    public TcpTuning tcpTuning() {
        return tcpTuning;
    }

    public RouteLookup route(String database, String user) {
        RouteKey key = new RouteKey(database, user);
        RouteLookup r = found.get(key);
        if (r == null) {
            r = resolve(database, user);
            // refusals name the database in their message, and are not what logins repeat
            if (!(r instanceof RouteLookup.Refused) && found.size() < ROUTES_KEPT) {
                found.put(key, r);
            }
        }
        return r;
    }

    private RouteLookup resolve(String database, String user) {
        Precedence rules = config.precedence();
        if (CONSOLE_DB.equals(database)) {
            return new RouteLookup.Console(defaults.maxDbClientConnections(), rules.maxUserClientConnections(user));
        }
        Optional<DatabaseEntry> entry = config.database(database);
        boolean any = "any".equals(config.authType());
        if (any && !entry.map(DatabaseEntry::hasForcedUser).orElse(false)) {
            // a database PgBouncer does not have is a fake one, without a forced user either
            return new RouteLookup.Misconfigured("auth_type=any requires forced user");
        }
        if (entry.isEmpty()) {
            return new RouteLookup.Refused(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "no such database: " + database),
                    true);
        }
        DatabaseEntry db = entry.get();
        String poolUser = db.user().orElse(user);
        // auth_type = any keeps no name of the client's own: it logs in as the forced user, whose
        // [users] settings and client limits apply (the login adopts the pool key's user)
        String login = any ? poolUser : user;
        UserEntry u = config.users().get(login);
        Route d = defaults;
        return new RouteLookup.Pooled(new Route(
                new PoolKey(database, poolUser),
                rules.poolMode(db, poolUser),
                d.resetQuery(),
                d.resetAlways(),
                u == null ? d.queryTimeout() : nanosOr(u.queryTimeout(), d.queryTimeout()),
                u == null ? d.idleTransactionTimeout() : nanosOr(u.idleTransactionTimeout(), d.idleTransactionTimeout()),
                u == null ? d.clientIdleTimeout() : nanosOr(u.clientIdleTimeout(), d.clientIdleTimeout()),
                u == null ? d.transactionTimeout() : nanosOr(u.transactionTimeout(), d.transactionTimeout()),
                rules.maxDbClientConnections(db),
                rules.maxUserClientConnections(login),
                d.maxPreparedStatements(),
                d.maxPinnedServers()));
    }

    private static long nanosOr(Optional<Duration> own, long inherited) {
        return own.isPresent() ? own.get().toNanos() : inherited;
    }

    /** {@code database} has no [databases] entry of its own and is served through {@code *}. */
    public boolean isAutoDatabase(String database) {
        return !config.databases().containsKey(database) && config.database(database).isPresent();
    }

    DatabaseEntry entry(PoolKey key) {
        return config.database(key.database())
                .orElseThrow(() -> new IllegalStateException("no such database: " + key.database()));
    }

    public PoolSettings poolSettings(PoolKey key) {
        PoolSizing p = config.precedence().pool(entry(key), key.user());
        var s = config.settings();
        return new PoolSettings(
                p.poolSize(),
                Math.min(p.poolSize(), p.minPoolSize()),
                p.reservePoolSize(),
                config.reservePoolTimeout().toNanos(),
                // PgBouncer: 0 = wait forever; existing configs must keep that meaning.
                config.queryWaitTimeout().isZero() ? Long.MAX_VALUE : config.queryWaitTimeout().toNanos(),
                p.serverLifetime().toNanos(),
                config.serverIdleTimeout().toNanos(),
                s.nanos("server_check_delay"),
                config.serverCheckQuery().isPresent(),
                s.nanos("server_login_retry"),
                s.flag("server_round_robin"),
                config.warmPoolRatioPercent(),
                config.fastRetries(),
                config.maxParallelCreates(),
                config.retainConnectionsTime().toNanos(),
                p.maxDbConnections(),
                p.maxUserConnections(),
                config.minGuaranteedPoolSize(),
                config.minConnectionLifetime().toNanos(),
                config.dbReservePoolSize(),
                config.dbReservePoolTimeout().toNanos());
    }

    /**
     * Where the pool's servers are and how they log in; {@code scramKeys} holds pass-through keys,
     * {@code queried} (database, user) the secrets auth_query returned for users not in auth_file.
     */
    public BackendTarget target(PoolKey key, ServerAddress at, ScramKeyCache scramKeys,
                                BiFunction<String, String, String> queried) {
        DatabaseEntry db = entry(key);
        Map<String, String> startup = new LinkedHashMap<>();
        startup.put("user", key.user());
        startup.put("database", db.dbname());
        db.clientEncoding().ifPresent(v -> startup.put("client_encoding", v));
        db.datestyle().ifPresent(v -> startup.put("datestyle", v));
        db.timezone().ifPresent(v -> startup.put("timezone", v));
        db.applicationName().ifPresent(v -> startup.put("application_name", v));
        // the forced user's password is for the forced user's pool, not for an auth_user pool
        boolean forced = db.user().filter(key.user()::equals).isPresent() && !db.password().isEmpty();
        String password = forced ? db.password() : secret(key.user());
        if (password == null) {
            password = queried.apply(key.database(), key.user());
        }
        BackendCredentials creds = scramKeys.credentials(key.user(), password);
        return new BackendTarget(at.host(), at.port(), startup, creds, db.connectQuery().orElse(null),
                config.settings().nanos("server_connect_timeout"));
    }

    /**
     * Where auth_query runs for a user of {@code database} missing from auth_file: PgBouncer's
     * set_pool() and prepare_auth_database(). The per-database auth_user, auth_query and
     * auth_dbname win over the global ones; without an auth_user (or for a database that does
     * not exist) nothing runs.
     */
    AuthSource authSource(String database) {
        Optional<DatabaseEntry> entry = config.database(database);
        var s = config.settings();
        Optional<String> authUser = entry.flatMap(DatabaseEntry::authUser)
                .or(() -> Optional.of(s.string("auth_user")).filter(u -> !u.isEmpty()));
        if (entry.isEmpty() || authUser.isEmpty()) {
            return AuthSource.NONE;
        }
        Optional<String> authDb = entry.get().authDbname()
                .or(() -> Optional.of(s.string("auth_dbname")).filter(d -> !d.isEmpty()));
        if (authDb.filter(CONSOLE_DB::equals).isPresent()) {
            return AuthSource.misconfigured("cannot use the reserved \"" + CONSOLE_DB + "\" database as an auth_dbname");
        }
        if (authDb.isPresent() && config.database(authDb.get()).isEmpty()) {
            return AuthSource.misconfigured("authentication database \"" + authDb.get() + "\" is not configured.");
        }
        String query = entry.get().authQuery().orElse(s.string("auth_query"));
        return new AuthSource(new PoolKey(authDb.orElse(database), authUser.get()), query, null);
    }

    /** The auth_file secret of {@code user}, or null. */
    public String secret(String user) {
        Secret s = authFileSecret(user);
        return s == null ? null : s.text();
    }

    /** The auth_file entry of {@code user} as the file's loader classified it, or null. */
    public Secret authFileSecret(String user) {
        return config.authFile().flatMap(f -> f.secret(user)).orElse(null);
    }

    public SessionSettings sessionSettings() {
        var s = config.settings();
        Set<String> tracked = new java.util.HashSet<>(Set.of("client_encoding", "datestyle", "timezone",
                "standard_conforming_strings", "application_name"));
        config.trackExtraParameters().forEach(p -> tracked.add(p.toLowerCase(Locale.ROOT)));
        return new SessionSettings(
                AuthMethod.parseAuthType(config.authType()),
                config.hba(),
                Set.copyOf(config.adminUsers()),
                Set.copyOf(config.statsUsers()),
                config.maxClientConn(),
                s.nanos("client_login_timeout"),
                config.ignoreStartupParameters().stream().map(x -> x.toLowerCase(Locale.ROOT)).collect(Collectors.toSet()),
                Set.copyOf(tracked),
                s.flag("log_connections"),
                s.flag("log_disconnections"),
                s.flag("log_pooler_errors"),
                s.flag("disable_pqexec"),
                s.flag("application_name_add_host"),
                s.integer("max_packet_size"),
                config.listenPort(),
                s.nanos("query_wait_notify"),
                s.flag("server_fast_close"));
    }
}
