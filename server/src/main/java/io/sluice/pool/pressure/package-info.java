/**
 * Pool pressure control and the per-pool engine: {@link io.sluice.pool.pressure.Pool} with the
 * six-phase checkout walk (recycle, warm gate, anticipation spin, direct handoff, bounded burst
 * gate, connect), the return path, recycle checks and pre-replacement.
 *
 * <p>Threading: engine thread only; nothing here blocks or locks. May use {@code pool},
 * {@code pool.coord} and {@code util}.
 */
package io.sluice.pool.pressure;
