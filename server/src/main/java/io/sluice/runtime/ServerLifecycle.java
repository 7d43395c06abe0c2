package io.sluice.runtime;

import io.sluice.config.ConfigException;
import io.sluice.config.ConfigLoader;
import io.sluice.config.ConfigSnapshot;
import io.sluice.log.Log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * What signals do to a running {@link SluiceServer} (PgBouncer 1.25 semantics). Every method
 * hops onto the server's event loop.
 */
final class ServerLifecycle implements Lifecycle {
    private final SluiceServer server;
    private volatile boolean shuttingDown;

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
        Log.global().warning("not supported: PAUSE (comes with the admin console step)");
    }

    @Override
    public void resume() {
        Log.global().warning("not supported: RESUME (comes with the admin console step)");
    }

    @Override
    public void shutdownWaitForClients() {
        shuttingDown = true;
        server.loop().execute(() -> {
            server.listeners().closeTcp();
            waitThenStop(() -> server.clients().total() == 0, "client connections dropped, exiting");
        });
    }

    @Override
    public void shutdownWaitForServers() {
        shuttingDown = true;
        server.loop().execute(() -> {
            server.listeners().closeTcp();
            waitThenStop(() -> server.pools().snapshots().stream().allMatch(p -> p.svActive() == 0),
                    "server connections dropped, exiting");
        });
    }

    private void waitThenStop(java.util.function.BooleanSupplier done, String message) {
        if (done.getAsBoolean()) {
            Log.global().info(message);
            server.stopNow(0);
        } else {
            server.loop().schedule(() -> waitThenStop(done, message), 100, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void shutdownNow() {
        shuttingDown = true;
        server.stopNow(0);
    }

    @Override
    public boolean shuttingDown() {
        return shuttingDown;
    }

    @Override
    public PauseMode pauseMode() {
        return PauseMode.NONE;
    }

    @Override
    public CompletionStage<Integer> terminated() {
        return server.terminated();
    }
}
