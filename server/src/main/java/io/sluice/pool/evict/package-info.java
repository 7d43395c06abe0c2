/**
 * Expiry and maintenance: the {@link io.sluice.pool.evict.Janitor} (idle timeout, lifetime
 * expiry without replacement, min_pool_size replenish that only tries the burst gate) and the
 * {@link io.sluice.pool.evict.PoolRegistry} that owns all pools and the shared connection caps.
 * Cross-pool eviction belongs to the coordinator work and is not here yet.
 *
 * <p>Threading: engine thread only. May use {@code pool}, {@code pool.coord},
 * {@code pool.pressure} and {@code util}.
 */
package io.sluice.pool.evict;
