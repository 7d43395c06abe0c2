/**
 * Coordinator mode (max_db_connections &gt; 0): one {@link io.sluice.pool.coord.Coordinator} per
 * database keeps the user pools of that database under one permit budget and moves capacity to
 * the pool that needs it: try-acquire, reserve-first through the {@link
 * io.sluice.pool.coord.ReserveArbiter}, eviction of idle connections of slower neighbours
 * (through the {@link io.sluice.pool.coord.EvictionSource} port), a bounded wait, a ranked
 * reserve retry, then the "in use" error. Engine thread only; no threads, no locks.
 */
package io.sluice.pool.coord;
