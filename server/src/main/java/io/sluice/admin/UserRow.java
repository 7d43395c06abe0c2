package io.sluice.admin;

/**
 * One SHOW USERS row: a user known to the pooler (the built-in {@code pgbouncer} user included).
 *
 * @param poolSize         the user's own pool_size from {@code [users]}, null when not set
 * @param reservePoolSize  the user's own reserve_pool_size, null when not set
 * @param poolMode         the user's own pool_mode, null when inherited
 * @param maxUserConnections        effective max_user_connections
 * @param currentConnections        server connections of this user now
 * @param maxUserClientConnections  effective max_user_client_connections
 * @param currentClientConnections  client connections of this user now
 */
public record UserRow(
        String name,
        Integer poolSize,
        Integer reservePoolSize,
        String poolMode,
        int maxUserConnections,
        int currentConnections,
        int maxUserClientConnections,
        int currentClientConnections) {
}
