package io.sluice.backend;

import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.sluice.log.Log;
import io.sluice.net.Endpoint;
import io.sluice.net.Transport;
import io.sluice.pool.PoolKey;
import io.sluice.proto.BackendMessage;
import io.sluice.util.SocketIds;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends a CancelRequest for a server's backend on a new connection to that server, as
 * PostgreSQL requires; the client only ever sees Sluice's own keys.
 *
 * <p>A cancel is complete once PostgreSQL closes that connection: the postmaster has signalled
 * the backend by then. Until every cancel aimed at a server is complete, the server must not
 * serve another client, or a late cancel would stop that client's query; {@link #whenDone} holds
 * such a server back (PgBouncer's sv_being_canceled). Event loop only.
 */
public final class CancelForwarder implements Cancels {
    /** PgBouncer's reason for a cancel's server and client once PostgreSQL has taken the request. */
    public static final String SENT = "successfully sent cancel request";

    private final EventLoop loop;
    private final Transport transport;
    private final String defaultSocketDir;
    private final ConnectionLogging logging;
    /** Cancels in flight, and what waits for them to end, per target server. */
    private final Map<ServerConnection, InFlight> inFlight = new HashMap<>();

    private static final class InFlight {
        int cancels;
        final List<Runnable> then = new ArrayList<>();
    }

    public CancelForwarder(EventLoop loop, Transport transport, String defaultSocketDir, ConnectionLogging logging) {
        this.loop = loop;
        this.transport = transport;
        this.defaultSocketDir = defaultSocketDir;
        this.logging = logging;
    }

    /** Forwards a cancel for {@code server}'s backend; {@code done} runs once it is complete or failed. */
    @Override
    public void cancel(ServerConnection server, Runnable done) {
        BackendMessage.BackendKeyData key = server.cancelKey();
        if (key == null) {
            done.run(); // no query can run before login, so there is nothing to cancel
            return;
        }
        inFlight.computeIfAbsent(server, s -> new InFlight()).cancels++;
        BackendTarget t = server.target();
        SocketAddress address = t.unixSocket()
                ? new DomainSocketAddress(t.socketPath(defaultSocketDir))
                : new InetSocketAddress(t.host(), t.port());
        // the cancel's connection is a server of the pool for PgBouncer: its lines carry an S- prefix
        long id = SocketIds.next();
        long started = System.currentTimeMillis();
        Endpoint at = new Endpoint(t.unixSocket() ? "unix" : t.host(), t.port());
        boolean[] up = {false};
        CancelConnection.send(loop, transport, address, t.connectTimeoutNanos(), key.processId(), key.secretKey(),
                ch -> {
                    up[0] = true;
                    if (logging.connections().getAsBoolean()) {
                        Endpoint local = Endpoint.of(ch.localAddress(), 0);
                        Log.global().server(id, server.database(), server.user(), at.address(), at.port(),
                                Log.newServerConnection(t.unixSocket(), local.address(), local.port()));
                    }
                }, () -> {
                    if (logging.disconnections().getAsBoolean()) {
                        Log.global().server(id, server.database(), server.user(), at.address(), at.port(),
                                Log.closingBecause(up[0] ? SENT : "connect failed", started,
                                        System.currentTimeMillis()));
                    }
                    ended(server);
                    done.run();
                });
    }

    /**
     * Runs {@code then} once no cancel aimed at {@code server} is in flight: at once when none is,
     * else when the last one completes. Until then the server counts as being canceled.
     */
    @Override
    public void whenDone(ServerConnection server, Runnable then) {
        InFlight f = inFlight(server);
        if (f == null) {
            then.run();
        } else {
            f.then.add(then);
        }
    }

    @Override
    public boolean cancelling(ServerConnection server) {
        return inFlight(server) != null;
    }

    /** The server's cancels in flight, or null; asked on every server return, so no lookup when none is. */
    private InFlight inFlight(ServerConnection server) {
        return inFlight.isEmpty() ? null : inFlight.get(server);
    }

    private void ended(ServerConnection server) {
        InFlight f = inFlight(server);
        if (f == null || --f.cancels > 0) {
            return;
        }
        inFlight.remove(server);
        f.then.forEach(Runnable::run);
    }

    /** Cancels in flight against servers of {@code pool} (SHOW POOLS sv_active_cancel). */
    public int activeCancels(PoolKey pool) {
        int n = 0;
        for (Map.Entry<ServerConnection, InFlight> e : inFlight.entrySet()) {
            if (of(pool, e.getKey())) {
                n += e.getValue().cancels;
            }
        }
        return n;
    }

    /** Servers of {@code pool} released but held back for their cancels (SHOW POOLS sv_being_canceled). */
    public int beingCanceled(PoolKey pool) {
        int n = 0;
        for (Map.Entry<ServerConnection, InFlight> e : inFlight.entrySet()) {
            if (of(pool, e.getKey()) && !e.getValue().then.isEmpty()) {
                n++;
            }
        }
        return n;
    }

    /** {@code server} is released but held back for its cancels (SHOW SERVERS state being_canceled). */
    public boolean beingCanceled(ServerConnection server) {
        InFlight f = inFlight(server);
        return f != null && !f.then.isEmpty();
    }

    private static boolean of(PoolKey pool, ServerConnection server) {
        return pool.database().equals(server.database()) && pool.user().equals(server.user());
    }
}
