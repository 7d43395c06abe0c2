package io.sluice.runtime;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.log.Log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;

/**
 * What signals do to a running {@link SluiceServer} (PgBouncer 1.25 semantics). Every method
 * hops onto the server's event loop.
 */
final class ServerLifecycle implements Lifecycle {
    private final SluiceServer server;

    ServerLifecycle(SluiceServer server) {
        this.server = server;
    }

    @Override
    public void reload() {
        server.loop().execute(() -> {
            ConfigSnapshot current = server.routing().config();
            try {
                ConfigSnapshot next = ConfigLoader.reload(current);
                server.applyConfig(next);
                next.warnings().forEach(w -> Log.global().warning(w));
                reopenLog(next);
            } catch (ConfigException e) {
                Log.global().error(e.getMessage());
                Log.global().error("RELOAD failed, see logs for additional details");
            }
        });
    }

    private static void reopenLog(ConfigSnapshot c) {
        String logfile = c.settings().string("logfile");
        try {
            Log.global().reopen(logfile == null || logfile.isEmpty() ? null : Path.of(logfile));
        } catch (IOException e) {
            Log.global().error("cannot reopen logfile " + logfile + ": " + e.getMessage());
        }
    }

    @Override
    public void pause() {
        server.loop().execute(() -> server.pauseControl().pause(null));
    }

    @Override
    public void resume() {
        server.loop().execute(() -> server.pauseControl().resume(null));
    }

    @Override
    public void shutdownWaitForClients() {
        server.markShuttingDown();
        server.loop().execute(() -> {
            server.listeners().closeTcp();
            stopWhen(server.noClients(), "client connections dropped, exiting");
        });
    }

    @Override
    public void shutdownWaitForServers() {
        server.markShuttingDown();
        server.loop().execute(() -> {
            server.listeners().closeTcp();
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
