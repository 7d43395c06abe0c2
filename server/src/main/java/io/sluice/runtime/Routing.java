package io.sluice.runtime;

import io.sluice.backend.BackendCredentials;
import io.sluice.backend.BackendTarget;
import io.sluice.backend.ScramKeyCache;
import io.sluice.config.ConfigSnapshot;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.PoolSizing;
import io.sluice.config.Precedence;
import io.sluice.config.UserEntry;
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
import java.util.Optional;
import java.util.Set;
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

    public Routing(ConfigSnapshot config) {
        this.config = config;
    }

    public ConfigSnapshot config() {
        return config;
    }

    public RouteLookup route(String database, String user) {
        if (CONSOLE_DB.equals(database)) {
            return new RouteLookup.Console();
        }
        Optional<DatabaseEntry> entry = config.database(database);
        if (entry.isEmpty()) {
            return new RouteLookup.Refused(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "no such database: " + database));
        }
        DatabaseEntry db = entry.get();
        if ("any".equals(config.authType()) && !db.hasForcedUser()) {
            return new RouteLookup.Refused(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "bouncer config error"));
        }
        String poolUser = db.user().orElse(user);
        Precedence rules = config.precedence();
        Optional<UserEntry> u = Optional.ofNullable(config.users().get(user));
        var s = config.settings();
        return new RouteLookup.Pooled(new Route(
                new PoolKey(database, poolUser),
                rules.pool(db, poolUser).poolMode(),
                config.serverResetQuery(),
                s.flag("server_reset_query_always"),
                u.flatMap(UserEntry::queryTimeout).map(Duration::toNanos).orElse(s.nanos("query_timeout")),
                u.flatMap(UserEntry::idleTransactionTimeout).map(Duration::toNanos).orElse(s.nanos("idle_transaction_timeout")),
                u.flatMap(UserEntry::clientIdleTimeout).map(Duration::toNanos).orElse(s.nanos("client_idle_timeout")),
                u.flatMap(UserEntry::transactionTimeout).map(Duration::toNanos).orElse(s.nanos("transaction_timeout")),
                rules.maxDbClientConnections(db),
                rules.maxUserClientConnections(user),
                s.intValue("max_prepared_statements"),
                s.intValue("max_pinned_servers")));
    }

    private DatabaseEntry entry(PoolKey key) {
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

    /** Where the pool's servers are and how they log in; {@code scramKeys} holds pass-through keys. */
    public BackendTarget target(PoolKey key, ScramKeyCache scramKeys) {
        DatabaseEntry db = entry(key);
        Map<String, String> startup = new LinkedHashMap<>();
        startup.put("user", key.user());
        startup.put("database", db.dbname());
        db.clientEncoding().ifPresent(v -> startup.put("client_encoding", v));
        db.datestyle().ifPresent(v -> startup.put("datestyle", v));
        db.timezone().ifPresent(v -> startup.put("timezone", v));
        db.applicationName().ifPresent(v -> startup.put("application_name", v));
        String password = db.hasForcedUser() && !db.password().isEmpty() ? db.password() : secret(key.user());
        BackendCredentials creds = scramKeys.credentials(key.user(), password);
        String host = db.hosts().isEmpty() ? null : db.hosts().get(0);
        return new BackendTarget(host, db.port(), startup, creds, db.connectQuery().orElse(null),
                config.settings().nanos("server_connect_timeout"));
    }

    /** The auth_file secret of {@code user}, or null. */
    public String secret(String user) {
        return config.authFile().flatMap(f -> f.secret(user)).map(x -> x.text()).orElse(null);
    }

    public SessionSettings sessionSettings() {
        var s = config.settings();
        Set<String> tracked = new java.util.HashSet<>(Set.of("client_encoding", "datestyle", "timezone",
                "standard_conforming_strings", "application_name"));
        config.trackExtraParameters().forEach(p -> tracked.add(p.toLowerCase(Locale.ROOT)));
        return new SessionSettings(
                config.authType(),
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
                config.listenPort());
    }
}
