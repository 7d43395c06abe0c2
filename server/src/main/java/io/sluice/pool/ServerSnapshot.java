package io.sluice.pool;

/**
 * One server connection as SHOW SERVERS needs it from the engine.
 *
 * @param id            the handle's id; -1 for a connection still logging in (no handle yet)
 * @param state         PgBouncer state name: "active", "idle", "tested", "new"
 * @param connectTime   {@link io.sluice.util.Clock} nanos when login finished (when it started for "new");
 *                      the console converts to wall time
 * @param handle        the backend's handle (null for "new"), for address/pid/tls columns
 */
public record ServerSnapshot(PoolKey key, long id, String state, long connectTime, ServerHandle handle) {
}
