package io.sluice.config;

import io.sluice.config.ini.ConnStringParser;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns {@code [databases]}, {@code [users]} and {@code [peers]} values into entries with
 * PgBouncer's loader rules and error texts. Numbers use C {@code atoi} (leading digits,
 * garbage ignored) because PgBouncer accepts such files. Errors are thrown as
 * IllegalArgumentException carrying the reason; the loader adds {@code file:line}.
 */
final class EntryParsers {

    private EntryParsers() {
    }

    static DatabaseEntry database(String name, String connstr) {
        if (name.equals("pgbouncer")) {
            throw new IllegalArgumentException("database name \"" + name + "\" is reserved");
        }
        List<Map.Entry<String, String>> pairs = ConnStringParser.parse(connstr)
                .orElseThrow(() -> new IllegalArgumentException("syntax error in connection string"));
        Optional<String> dbname = Optional.empty();
        Optional<String> host = Optional.empty();
        List<Integer> ports = List.of(5432);
        Optional<String> user = Optional.empty();
        String password = "";
        ReplicaKeys replica = new ReplicaKeys();
        Optional<String> authUser = Optional.empty();
        Optional<String> authQuery = Optional.empty();
        Optional<String> authDbname = Optional.empty();
        OptionalInt poolSize = OptionalInt.empty();
        OptionalInt minPoolSize = OptionalInt.empty();
        OptionalInt reserve = OptionalInt.empty();
        OptionalInt maxDb = OptionalInt.empty();
        OptionalInt maxDbClient = OptionalInt.empty();
        Optional<Duration> lifetime = Optional.empty();
        Optional<PoolMode> poolMode = Optional.empty();
        LoadBalanceHosts lb = LoadBalanceHosts.ROUND_ROBIN;
        Optional<String> connectQuery = Optional.empty();
        Optional<String> clientEncoding = Optional.empty();
        Optional<String> datestyle = Optional.empty();
        Optional<String> timezone = Optional.empty();
        Optional<String> appName = Optional.empty();
        for (Map.Entry<String, String> kv : pairs) {
            String v = kv.getValue();
            switch (kv.getKey()) {
                case "dbname" -> dbname = Optional.of(v);
                case "host" -> host = Optional.of(v);
                case "port" -> ports = ports(v);
                case "user" -> user = Optional.of(v);
                case "password" -> password = v;
                case "auth_user" -> authUser = Optional.of(v);
                case "auth_query" -> authQuery = Optional.of(v);
                case "auth_dbname" -> authDbname = Optional.of(v);
                case "pool_size" -> poolSize = OptionalInt.of(atoi(v));
                case "min_pool_size" -> minPoolSize = OptionalInt.of(atoi(v));
                case "reserve_pool", "reserve_pool_size" -> reserve = OptionalInt.of(atoi(v));
                case "max_db_connections" -> maxDb = OptionalInt.of(atoi(v));
                case "max_db_client_connections" -> maxDbClient = OptionalInt.of(atoi(v));
                case "server_lifetime" -> lifetime = Optional.of(Duration.ofSeconds(atoi(v)));
                case "pool_mode" -> poolMode = Optional.of(PoolMode.fromConfig(v).orElseThrow(
                        () -> new IllegalArgumentException("invalid pool mode: " + v)));
                case "load_balance_hosts" -> lb = LoadBalanceHosts.fromConfig(v).orElseThrow(
                        () -> new IllegalArgumentException("invalid load_balance_hosts: " + v));
                case "connect_query" -> connectQuery = Optional.of(v);
                case "client_encoding" -> clientEncoding = Optional.of(v);
                case "datestyle" -> datestyle = Optional.of(v);
                case "timezone" -> timezone = Optional.of(v);
                case "application_name" -> appName = Optional.of(v);
                default -> {
                    if (!replica.accept(kv.getKey(), v)) {
                        throw new IllegalArgumentException("unrecognized connection parameter: " + kv.getKey());
                    }
                }
            }
        }
        int hostCount = host.map(h -> h.split(",", -1).length).orElse(1);
        if (ports.size() > 1 && ports.size() != hostCount) {
            throw new IllegalArgumentException("number of ports (" + ports.size()
                    + ") does not match number of hosts (" + hostCount + ")");
        }
        int port = ports.get(0);
        return new DatabaseEntry(name, dbname, host, port, user, password, authUser, authQuery,
                authDbname, poolSize, minPoolSize, reserve, maxDb, maxDbClient, lifetime, poolMode,
                lb, connectQuery, clientEncoding, datestyle, timezone, appName, connstr, ports, replica.build());
    }

    static UserEntry user(String name, String connstr) {
        List<Map.Entry<String, String>> pairs = ConnStringParser.parse(connstr)
                .orElseThrow(() -> new IllegalArgumentException("syntax error in user settings"));
        Optional<PoolMode> poolMode = Optional.empty();
        OptionalInt poolSize = OptionalInt.empty();
        OptionalInt reserve = OptionalInt.empty();
        OptionalInt maxUser = OptionalInt.empty();
        OptionalInt maxUserClient = OptionalInt.empty();
        Optional<Duration> queryTimeout = Optional.empty();
        Optional<Duration> idleXact = Optional.empty();
        Optional<Duration> xact = Optional.empty();
        Optional<Duration> clientIdle = Optional.empty();
        for (Map.Entry<String, String> kv : pairs) {
            String v = kv.getValue();
            switch (kv.getKey()) {
                case "pool_mode" -> poolMode = Optional.of(PoolMode.fromConfig(v).orElseThrow(
                        () -> new IllegalArgumentException("invalid pool mode: " + v)));
                case "pool_size" -> poolSize = OptionalInt.of(atoi(v));
                case "reserve_pool_size" -> reserve = OptionalInt.of(atoi(v));
                case "max_user_connections" -> maxUser = OptionalInt.of(atoi(v));
                case "max_user_client_connections" -> maxUserClient = OptionalInt.of(atoi(v));
                case "query_timeout" -> queryTimeout = Optional.of(Duration.ofSeconds(atoi(v)));
                case "idle_transaction_timeout" -> idleXact = Optional.of(Duration.ofSeconds(atoi(v)));
                case "transaction_timeout" -> xact = Optional.of(Duration.ofSeconds(atoi(v)));
                case "client_idle_timeout" -> clientIdle = Optional.of(Duration.ofSeconds(atoi(v)));
                // PgBouncer's loader says "user" here, not "connection"
                default -> throw new IllegalArgumentException("unrecognized user parameter: " + kv.getKey());
            }
        }
        return new UserEntry(name, poolMode, poolSize, reserve, maxUser, maxUserClient,
                queryTimeout, idleXact, xact, clientIdle);
    }

    static PeerEntry peer(String name, String connstr) {
        int peerId = peerId(name);
        List<Map.Entry<String, String>> pairs = ConnStringParser.parse(connstr)
                .orElseThrow(() -> new IllegalArgumentException("syntax error in connection string"));
        String host = null;
        int port = 6432;
        OptionalInt poolSize = OptionalInt.empty();
        for (Map.Entry<String, String> kv : pairs) {
            String v = kv.getValue();
            switch (kv.getKey()) {
                case "host" -> host = v;
                case "port" -> port = port(v);
                case "pool_size" -> poolSize = OptionalInt.of(atoi(v));
                default -> throw new IllegalArgumentException(
                        "unrecognized connection parameter: " + kv.getKey());
            }
        }
        if (host == null) {
            throw new IllegalArgumentException("host was not provided for peer " + peerId);
        }
        return new PeerEntry(peerId, host, port, poolSize);
    }

    private static int peerId(String name) {
        long id;
        try {
            id = Long.parseLong(name);
        } catch (NumberFormatException e) {
            id = 0;
        }
        if (id < 1 || id > 0xFFFF) {
            throw new IllegalArgumentException(
                    "ids of peers must be a number larger than 0 and at most 65536");
        }
        return (int) id;
    }

    /** {@code port=}: one port, or a comma list of one port per host. */
    private static List<Integer> ports(String v) {
        return java.util.Arrays.stream(v.split(",", -1)).map(EntryParsers::port).toList();
    }

    private static int port(String v) {
        int port = atoi(v);
        if (port == 0) {
            throw new IllegalArgumentException("invalid port: " + v);
        }
        return port;
    }

    /** C atoi: optional blanks and sign, then leading digits; anything else ignored; 0 if none. */
    static int atoi(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean neg = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        long v = 0;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            v = Math.min(v * 10 + (s.charAt(i) - '0'), (long) Integer.MAX_VALUE + 1);
            i++;
        }
        v = neg ? -v : v;
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }
}
