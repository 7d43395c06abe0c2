package io.sluice.runtime;

import io.sluice.log.Log;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;

/** Turns engine events into PgBouncer's log lines (a server's "new connection" line is the connector's). */
final class LoggingPoolEvents implements PoolEvents {
    @Override
    public void reserveUsed(PoolKey key, Waiter oldest) {
        String message = "taking connection from reserve_pool";
        if (!oldest.logWarning(message)) {
            Log.global().warning(key.database() + "/" + key.user() + ": " + message);
        }
    }
}
