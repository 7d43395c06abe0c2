package io.sluice.runtime;

import io.sluice.log.Log;
import io.sluice.pool.CheckoutFailure;
import io.sluice.proto.SqlState;

import java.util.concurrent.CompletionStage;

/**
 * What signals do to a running {@link SluiceServer} (PgBouncer 1.25 semantics). Every method
 * hops onto the server's event loop.
 */
final class ServerLifecycle implements Lifecycle {
    static final String SHUTTING_DOWN = "server shutting down";

    private final SluiceServer server;

    ServerLifecycle(SluiceServer server) {
        this.server = server;
    }

    @Override
    public String transport() {
        return server.transport().describe();
    }

    @Override
    public void reload() {
        server.loop().execute(server::reloadFiles);
    }

    @Override
    public void pause() {
        server.loop().execute(() -> server.pauseControl().pause(null));
    }

    @Override
    public void resume() {
        server.loop().execute(() -> server.pauseControl().resume(null));
    }

    /** No new clients on any listener, the unix socket included; the others carry on until they leave. */
    @Override
    public void shutdownWaitForClients() {
        server.markShuttingDown();
        // the clients are counted once the listeners are closed: until then io_uring may still
        // hand over a connection accepted in the meantime, and exiting would reset it
        server.loop().execute(() -> server.listeners().closeAll().thenRunAsync(
                () -> stopWhen(server.noClients(), "client connections dropped, exiting"), server.loop()));
    }

    /**
     * TCP listeners close (the unix socket stays for the console); transactions that hold a
     * server finish, while every client queued for a server, and every request after this,
     * gets "server shutting down" and is disconnected, as PgBouncer 1.25 does.
     */
    @Override
    public void shutdownWaitForServers() {
        server.markShuttingDown();
        server.loop().execute(() -> {
            server.listeners().closeTcp();
            server.pauseControl().refuseWaiters(new CheckoutFailure(CheckoutFailure.Kind.CLOSED,
                    SqlState.PROTOCOL_VIOLATION, SHUTTING_DOWN));
            server.pauseControl().pause(null);
            stopWhen(server.pools().awaitNoneLent(), "server connections dropped, exiting");
        });
    }

    /** Both waits complete on the loop, from the event that ended the last use. */
    private void stopWhen(CompletionStage<Void> drained, String message) {
        drained.thenRun(() -> {
            Log.global().info(message);
            server.stopNow(0);
        });
    }

    @Override
    public void shutdownNow() {
        server.markShuttingDown();
        server.stopNow(0);
    }

    @Override
    public boolean shuttingDown() {
        return server.shuttingDown();
    }

    @Override
    public PauseMode pauseMode() {
        return server.pauseControl().pausedAll() ? PauseMode.PAUSE : PauseMode.NONE;
    }

    @Override
    public CompletionStage<Integer> terminated() {
        return server.terminated();
    }
}
