/**
 * Expiry and maintenance: the {@link io.sluice.pool.evict.Janitor} (idle timeout, lifetime
 * expiry without replacement, min_pool_size replenish that only tries the burst gate) and the
 * {@link io.sluice.pool.evict.PoolRegistry} that owns all pools and the shared connection caps.
 * Under a coordinator the janitor also runs the retain task (reserve → main upgrade, release of
 * idle reserve connections), and {@link io.sluice.pool.evict.PoolEvictionSource} answers the
 * coordinator's cross-pool eviction questions over the live pools.
 *
 * <p>Threading: engine thread only. May use {@code pool}, {@code pool.coord},
 * {@code pool.pressure} and {@code util}.
 */
package io.sluice.pool.evict;
