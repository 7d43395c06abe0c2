package io.sluice.config;

import java.time.Duration;

/**
 * The effective pool mode, sizes and caps of one (database, user) pool, as
 * {@link Precedence#pool} resolves them.
 *
 * @param poolMode           [users] &gt; [databases] &gt; global
 * @param poolSize           [users] &gt; [databases] &gt; default_pool_size
 * @param minPoolSize        [databases] &gt; global (PgBouncer has no per-user one)
 * @param reservePoolSize    [users] &gt; [databases] &gt; global
 * @param serverLifetime     [databases] &gt; global
 * @param maxDbConnections   [databases] &gt; global; 0 = no cap
 * @param maxUserConnections [users] &gt; global; 0 = no cap
 */
public record PoolSizing(PoolMode poolMode, int poolSize, int minPoolSize, int reservePoolSize,
                         Duration serverLifetime, int maxDbConnections, int maxUserConnections) {
}
