/**
 * Pool engine core: pools keyed by (database, user), idle queues, FIFO waiters, leases, and the
 * ports the network side implements ({@link io.sluice.pool.ServerConnector},
 * {@link io.sluice.pool.ServerHandle}, {@link io.sluice.pool.Waiter}).
 *
 * <p>Threading: the engine is confined to one thread, the <em>engine thread</em> (an event
 * loop in production, the test itself on virtual time). It never blocks and never starts a
 * thread; callers on other threads hop onto it through the {@link io.sluice.util.Scheduler}.
 * May use {@code config} and {@code util} only.
 */
package io.sluice.pool;
