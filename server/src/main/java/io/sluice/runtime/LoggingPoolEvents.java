package io.sluice.runtime;

import io.sluice.log.Log;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;

/** Turns engine events into PgBouncer's log lines. */
final class LoggingPoolEvents implements PoolEvents {
    private final SluiceServer server;

    LoggingPoolEvents(SluiceServer server) {
        this.server = server;
    }

    @Override
    public void serverCreated(PoolKey key, long serverId) {
        var conn = server.servers().get(serverId);
        if (conn != null && server.routing().config().settings().flag("log_connections")) {
            Log.global().server(serverId, key.database(), key.user(), conn.remote().address(), conn.remote().port(),
                    Log.newServerConnection(conn.local().address(), conn.local().port()));
        }
    }

    @Override
    public void reserveUsed(PoolKey key) {
        Log.global().warning(key.database() + "/" + key.user() + ": taking connection from reserve_pool");
    }
}
