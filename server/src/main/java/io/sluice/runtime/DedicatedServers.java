package io.sluice.runtime;

import io.sluice.backend.NettyServerConnector;
import io.sluice.backend.ServerConnection;
import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replication clients' own server connections: opened outside the pools, one per client, and
 * listed (id to physical / logical) for SHOW SERVERS while they are open.
 */
final class DedicatedServers {
    private final Map<Long, String> modes = new LinkedHashMap<>();
    private final NettyServerConnector connector;
    private final LoggingPoolEvents events;

    DedicatedServers(NettyServerConnector connector, LoggingPoolEvents events) {
        this.connector = connector;
        this.events = events;
    }

    void connect(PoolKey key, Map<String, String> startup, ServerConnector.Callback callback) {
        String mode = "database".equals(startup.get("replication")) ? "logical" : "physical";
        connector.connectDedicated(key, startup, new ServerConnector.Callback() {
            @Override
            public void connected(ServerHandle handle) {
                ServerConnection conn = ServerConnection.of(handle);
                modes.put(conn.id(), mode);
                conn.channel().closeFuture().addListener(f -> modes.remove(conn.id()));
                events.serverCreated(key, conn.id());
                callback.connected(handle);
            }

            @Override
            public void failed(String sqlState, String message) {
                callback.failed(sqlState, message);
            }

            @Override
            public void rejected(String sqlState, String message) {
                callback.rejected(sqlState, message);
            }
        });
    }

    Map<Long, String> modes() {
        return modes;
    }
}
