package io.sluice.pool.coord;

import io.sluice.pool.Permit;
import io.sluice.pool.PoolKey;

/**
 * What the coordinator needs from a checkout whose phase A failed and which now waits for a
 * permit (implemented in {@code pool.pressure}). Engine thread only.
 */
public interface PermitRequester {
    PoolKey key();

    /** False once the checkout was served another way, failed, or its client left. */
    boolean isWaiting();

    /** True when its pool could start a connect at once (a burst-gate slot is free, the pool has room). */
    boolean canConnectNow();

    /** Its pool is below its effective minimum (wins the reserve arbiter). */
    boolean starving();

    /** Connections its pool holds (all states, connects included). */
    int poolSize();

    /** Clients waiting in its pool (second key of the arbiter's ranking). */
    int queuedClients();

    /** Takes ownership of {@code permit}: connects with it, or releases it if it cannot. */
    void accept(Permit permit);

    /** Phase E: no permit could be had. */
    void exhausted(String message);
}
