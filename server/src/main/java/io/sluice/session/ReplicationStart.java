package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.pool.ServerConnector;
import io.sluice.pool.ServerHandle;
import io.sluice.proto.PgError;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The end of a replication client's login: instead of a pooled server, a dedicated connection is
 * opened with {@code replication}, the client's own parameters and its {@code options} verbatim
 * in the startup packet (a physical walsender accepts no SET, and PgBouncer forwards any options
 * for replication), and the client is greeted with that server's parameters once it is in.
 */
final class ReplicationStart {
    private ReplicationStart() {
    }

    /** Calls {@code done} with true once the client is greeted, false when it was refused. */
    static void start(ClientSession session, Route route, Replication mode, ClientParams params, String options,
                      java.util.function.Consumer<Boolean> done) {
        Map<String, String> startup = new LinkedHashMap<>(params.own());
        startup.put("replication", mode.startupValue());
        if (options != null) {
            startup.put("options", options);
        }
        session.context().connectReplication(route.poolKey(), startup, new ServerConnector.Callback() {
            @Override
            public void connected(ServerHandle handle) {
                ServerConnection server = ServerConnection.of(handle);
                if (!session.channel().isActive() || session.state() == ClientSession.State.CLOSED) {
                    server.close("replication client was closed");
                    done.accept(false);
                    return;
                }
                done.accept(true);
                session.loggedInReplication(route, mode, params, server);
            }

            @Override
            public void failed(String sqlState, String message) {
                done.accept(false);
                session.fail(PgError.fatal(sqlState, message), message);
            }

            @Override
            public void rejected(String sqlState, String message) {
                // a replication client has no queue to keep waiting in: refused either way
                failed(sqlState, message);
            }
        });
    }
}
