package io.sluice.admin;

/**
 * One SHOW DATABASES row: a {@code [databases]} entry (or auto-database) with its effective
 * values, plus the console's own row {@code pgbouncer} (host null, port = listen_port, dbname
 * {@code pgbouncer}, force user {@code pgbouncer}, pool size 2, pool mode {@code statement}).
 *
 * @param name                     entry name clients connect to
 * @param host                     host as configured (comma list kept); null for the Unix socket default
 * @param port                     server port
 * @param dbname                   real database name on the server
 * @param forceUser                forced user, null if none
 * @param poolSize                 effective pool size (entry value, else default_pool_size)
 * @param minPoolSize              effective min_pool_size
 * @param reservePoolSize          effective reserve_pool_size
 * @param serverLifetimeSeconds    effective server_lifetime in whole seconds
 * @param poolMode                 the entry's own pool_mode, null when inherited from the global one
 * @param loadBalanceHosts         load_balance_hosts value, null unless host is a comma list
 * @param maxConnections           effective max_db_connections (0 = no limit)
 * @param currentConnections       server connections of this database now
 * @param maxClientConnections     effective max_db_client_connections (0 = no limit)
 * @param currentClientConnections client connections of this database now
 * @param paused                   paused by PAUSE db / KILL
 * @param disabled                 disabled by DISABLE db
 */
public record DatabaseRow(
        String name,
        String host,
        int port,
        String dbname,
        String forceUser,
        int poolSize,
        int minPoolSize,
        int reservePoolSize,
        int serverLifetimeSeconds,
        String poolMode,
        String loadBalanceHosts,
        int maxConnections,
        int currentConnections,
        int maxClientConnections,
        int currentClientConnections,
        boolean paused,
        boolean disabled) {
}
