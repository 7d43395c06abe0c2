package io.sluice.runtime;

import io.sluice.log.Log;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;

/** Turns engine events into PgBouncer's log lines (a server's "new connection" line is the connector's). */
final class LoggingPoolEvents implements PoolEvents {
    @Override
    public void reserveUsed(PoolKey key) {
        Log.global().warning(key.database() + "/" + key.user() + ": taking connection from reserve_pool");
    }
}
