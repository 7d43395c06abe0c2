package io.sluice.runtime;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** A Lifecycle that records calls and follows PgBouncer's state rules just enough for tests. */
final class FakeLifecycle implements Lifecycle {
    final List<String> events = new CopyOnWriteArrayList<>();
    final CompletableFuture<Integer> terminated = new CompletableFuture<>();
    private final Consumer<String> listener;
    volatile boolean shuttingDown;
    volatile PauseMode pauseMode = PauseMode.NONE;
    /** Runs when someone asks for terminated(): Main does that once it serves. */
    volatile Runnable onServing = () -> { };

    FakeLifecycle() {
        this(e -> { });
    }

    FakeLifecycle(Consumer<String> listener) {
        this.listener = listener;
    }

    private void event(String e) {
        events.add(e);
        listener.accept(e);
    }

    @Override public String transport() { return "fake"; }
    @Override public void reload() { event("reload"); }
    @Override public void pause() { pauseMode = PauseMode.PAUSE; event("pause"); }
    @Override public void resume() { pauseMode = PauseMode.NONE; event("resume"); }
    @Override public void shutdownWaitForClients() { shuttingDown = true; event("shutdownWaitForClients"); }
    @Override public void shutdownWaitForServers() { shuttingDown = true; event("shutdownWaitForServers"); }

    @Override
    public void shutdownNow() {
        shuttingDown = true;
        event("shutdownNow");
        terminated.complete(0);
    }

    @Override public boolean shuttingDown() { return shuttingDown; }
    @Override public PauseMode pauseMode() { return pauseMode; }
    @Override
    public CompletionStage<Integer> terminated() {
        onServing.run();
        return terminated;
    }
}
