package io.sluice.config;

import io.sluice.config.hba.HbaRules;
import io.sluice.config.userlist.AuthFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One complete, immutable configuration: global settings, {@code [databases]} (file order)
 * with the {@code *} fallback apart, {@code [users]}, {@code [peers]}, the parsed auth file
 * and the warnings produced while loading. Built by {@link ConfigLoader}; RELOAD and SET make
 * a new snapshot and swap it in atomically, so readers on any thread see a consistent whole.
 *
 * @param source     the config file as given (what RELOAD re-reads unless conffile changed)
 * @param workingDir directory relative auth_file/auth_hba_file/%include names resolve against
 * @param settings   every {@code [pgbouncer]} key's value
 * @param databases  {@code [databases]} entries except {@code *}, in file order
 * @param fallback   the {@code *} entry
 * @param users      {@code [users]} entries in file order
 * @param peers      {@code [peers]} entries by peer id, in file order
 * @param authFile   the auth file, read when auth_file is set
 * @param hba        the hba rules, read when auth_type is hba
 * @param warnings   one line per accepted-but-ignored key or questionable value
 */
public record ConfigSnapshot(
        Path source,
        Path workingDir,
        Settings settings,
        Map<String, DatabaseEntry> databases,
        Optional<DatabaseEntry> fallback,
        Map<String, UserEntry> users,
        Map<Integer, PeerEntry> peers,
        Optional<AuthFile> authFile,
        Optional<HbaRules> hba,
        List<String> warnings) {

    public ConfigSnapshot {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(workingDir, "workingDir");
        Objects.requireNonNull(settings, "settings");
        databases = Collections.unmodifiableMap(new LinkedHashMap<>(databases));
        Objects.requireNonNull(fallback, "fallback");
        users = Collections.unmodifiableMap(new LinkedHashMap<>(users));
        peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
        Objects.requireNonNull(authFile, "authFile");
        Objects.requireNonNull(hba, "hba");
        warnings = List.copyOf(warnings);
    }

    /** The {@code [databases]} entry for {@code name}, else one derived from {@code *}. */
    public Optional<DatabaseEntry> database(String name) {
        DatabaseEntry e = databases.get(name);
        if (e != null) {
            return Optional.of(e);
        }
        return fallback.map(f -> f.forAutoDatabase(name));
    }

    /** PgBouncer's [users] &gt; [databases] &gt; [pgbouncer] rules for pool sizes, caps and pool mode. */
    public Precedence precedence() {
        return new Precedence(this);
    }

    /**
     * SHOW CONFIG rows in alphabetical key order, PgBouncer's formatting.
     *
     * @param includeSluiceKeys false gives exactly PgBouncer 1.25.2's 98 rows
     */
    public List<ShowConfigRow> showConfigRows(boolean includeSluiceKeys) {
        List<ShowConfigRow> rows = new ArrayList<>();
        for (ConfigKey k : ConfigKeys.all()) {
            if (!includeSluiceKeys && k.origin() != ConfigKey.Origin.PGBOUNCER) {
                continue;
            }
            rows.add(new ShowConfigRow(k.name(), settings.format(k.name()), k.defaultValue(),
                    k.changeable() ? "yes" : "no"));
        }
        return rows;
    }

    /** SHOW CONFIG rows including Sluice's own keys (they are settable with SET too). */
    public List<ShowConfigRow> showConfigRows() {
        return showConfigRows(true);
    }

    /**
     * The admin console's {@code SET key = value}: a new snapshot with one setting changed.
     * Setting auth_file, auth_type or auth_hba_file re-reads
     * the files they name. Refuses unknown keys, invalid values and keys
     * that need a restart; the message says why (the console answers "SET failed").
     */
    public ConfigSnapshot withSetting(String key, String value) throws ConfigException {
        return ConfigLoader.applySet(this, key, value);
    }

    // --- typed accessors for the settings the runtime uses ---

    public String conffile() {
        return settings.string("conffile");
    }

    public List<String> listenAddrs() {
        return settings.list("listen_addr");
    }

    public int listenPort() {
        return settings.intValue("listen_port");
    }

    public String unixSocketDir() {
        return settings.string("unix_socket_dir");
    }

    public int unixSocketMode() {
        return settings.intValue("unix_socket_mode");
    }

    public PoolMode poolMode() {
        return PoolMode.fromConfig(settings.string("pool_mode")).orElseThrow();
    }

    public String authType() {
        return settings.string("auth_type");
    }

    public int maxClientConn() {
        return settings.intValue("max_client_conn");
    }

    public int defaultPoolSize() {
        return settings.intValue("default_pool_size");
    }

    public int minPoolSize() {
        return settings.intValue("min_pool_size");
    }

    public int reservePoolSize() {
        return settings.intValue("reserve_pool_size");
    }

    public Duration reservePoolTimeout() {
        return settings.duration("reserve_pool_timeout");
    }

    public int maxDbConnections() {
        return settings.intValue("max_db_connections");
    }

    public int maxUserConnections() {
        return settings.intValue("max_user_connections");
    }

    public List<String> adminUsers() {
        return settings.list("admin_users");
    }

    public List<String> statsUsers() {
        return settings.list("stats_users");
    }

    public List<String> ignoreStartupParameters() {
        return settings.list("ignore_startup_parameters");
    }

    public List<String> trackExtraParameters() {
        return settings.list("track_extra_parameters");
    }

    public String serverResetQuery() {
        return settings.string("server_reset_query");
    }

    /**
     * The liveness check query: {@code ""} (PgBouncer's {@code <empty>}) means send an empty
     * query; empty Optional means checks are disabled (key set to the empty string).
     */
    public Optional<String> serverCheckQuery() {
        String q = settings.string("server_check_query");
        if (q.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(q.equals("<empty>") ? "" : q);
    }

    public Duration serverLifetime() {
        return settings.duration("server_lifetime");
    }

    public Duration serverIdleTimeout() {
        return settings.duration("server_idle_timeout");
    }

    public Duration queryWaitTimeout() {
        return settings.duration("query_wait_timeout");
    }

    public int warmPoolRatioPercent() {
        return settings.intValue("scaling_warm_pool_ratio");
    }

    public int fastRetries() {
        return settings.intValue("scaling_fast_retries");
    }

    public int maxParallelCreates() {
        return settings.intValue("scaling_max_parallel_creates");
    }

    public Duration retainConnectionsTime() {
        return settings.duration("retain_connections_time");
    }

    public Duration minConnectionLifetime() {
        return settings.duration("min_connection_lifetime");
    }

    public int minGuaranteedPoolSize() {
        return settings.intValue("min_guaranteed_pool_size");
    }

    /** Coordinator mode: reserve permits above max_db_connections (Sluice's db_reserve_pool_size). */
    public int dbReservePoolSize() {
        return settings.intValue("db_reserve_pool_size");
    }

    /** Coordinator mode: phase C wait budget; zero = as long as the client's query_wait_timeout. */
    public Duration dbReservePoolTimeout() {
        return settings.duration("db_reserve_pool_timeout");
    }
}
