package io.sluice.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One {@code [databases]} entry. Empty optionals mean "inherit the global setting" (or, for
 * host, "Unix socket in unix_socket_dir"). The {@code *} fallback entry has name {@code *};
 * {@link #forAutoDatabase} derives the entry PgBouncer would register for an unknown name.
 *
 * @param name                   entry name (what clients connect to)
 * @param dbnameOverride         {@code dbname=} if given; see {@link #dbname()}
 * @param host                   {@code host=}, possibly a comma list (see {@link #hosts()})
 * @param port                   {@code port=}, default 5432
 * @param user                   forced user
 * @param password               password of the forced user, default ""
 * @param authUser               per-database auth_user
 * @param authQuery              per-database auth_query
 * @param authDbname             per-database auth_dbname
 * @param poolSize               pool_size
 * @param minPoolSize            min_pool_size
 * @param reservePoolSize        reserve_pool_size / reserve_pool
 * @param maxDbConnections       max_db_connections
 * @param maxDbClientConnections max_db_client_connections
 * @param serverLifetime         server_lifetime (integer seconds in PgBouncer)
 * @param poolMode               pool_mode
 * @param loadBalanceHosts       load_balance_hosts, default round-robin
 * @param connectQuery           connect_query
 * @param clientEncoding         client_encoding sent at server login
 * @param datestyle              datestyle sent at server login
 * @param timezone               timezone sent at server login
 * @param applicationName        application_name sent at server login
 * @param connectionString       the raw value, for change detection on RELOAD
 * @param ports                  {@code port=} as a list: one port for every host, or one per host
 * @param replicaChecks          Sluice's replica lag routing keys (off unless max_replica_lag is set)
 */
public record DatabaseEntry(
        String name,
        Optional<String> dbnameOverride,
        Optional<String> host,
        int port,
        Optional<String> user,
        String password,
        Optional<String> authUser,
        Optional<String> authQuery,
        Optional<String> authDbname,
        OptionalInt poolSize,
        OptionalInt minPoolSize,
        OptionalInt reservePoolSize,
        OptionalInt maxDbConnections,
        OptionalInt maxDbClientConnections,
        Optional<Duration> serverLifetime,
        Optional<PoolMode> poolMode,
        LoadBalanceHosts loadBalanceHosts,
        Optional<String> connectQuery,
        Optional<String> clientEncoding,
        Optional<String> datestyle,
        Optional<String> timezone,
        Optional<String> applicationName,
        String connectionString,
        List<Integer> ports,
        ReplicaChecks replicaChecks) {

    /** Name of the fallback entry. */
    public static final String FALLBACK = "*";

    public DatabaseEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(loadBalanceHosts, "loadBalanceHosts");
        Objects.requireNonNull(connectionString, "connectionString");
        ports = List.copyOf(ports);
        Objects.requireNonNull(replicaChecks, "replicaChecks");
    }

    /** Database name on the server: {@code dbname=} or else the entry name. */
    public String dbname() {
        return dbnameOverride.orElse(name);
    }

    /** Hosts of a comma list, in order; empty when host is unset. */
    public List<String> hosts() {
        return host.map(h -> List.of(h.split(","))).orElse(List.of()).stream()
                .map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** True when a forced user makes all clients share one pool. */
    public boolean hasForcedUser() {
        return user.isPresent();
    }

    /** The entry PgBouncer registers for database {@code db} through this fallback entry. */
    public DatabaseEntry forAutoDatabase(String db) {
        return new DatabaseEntry(db, Optional.of(dbnameOverride.orElse(db)), host, port, user, password,
                authUser, authQuery, authDbname, poolSize, minPoolSize, reservePoolSize,
                maxDbConnections, maxDbClientConnections, serverLifetime, poolMode,
                loadBalanceHosts, connectQuery, clientEncoding, datestyle, timezone,
                applicationName, connectionString, ports, replicaChecks);
    }

    /**
     * Where the servers are, in {@code host=} order, each with its port: a single {@code port=}
     * serves every host, a list pairs up with the hosts (PgBouncer 1.24's rule). One null host
     * (a unix socket in unix_socket_dir) when host is unset.
     */
    public List<ServerAddress> addresses() {
        List<String> hosts = hosts();
        if (hosts.isEmpty()) {
            return List.of(new ServerAddress(null, port));
        }
        List<ServerAddress> out = new java.util.ArrayList<>(hosts.size());
        for (int i = 0; i < hosts.size(); i++) {
            out.add(new ServerAddress(hosts.get(i), ports.size() == hosts.size() ? ports.get(i) : port));
        }
        return List.copyOf(out);
    }
}
