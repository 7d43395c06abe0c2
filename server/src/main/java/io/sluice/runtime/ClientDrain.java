package io.sluice.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntSupplier;

/**
 * SHUTDOWN WAIT_FOR_CLIENTS's wait: stages that complete, on the event loop, once no client is
 * connected any more. {@link #check} runs after every client has gone.
 */
final class ClientDrain {
    private final IntSupplier connected;
    private final List<CompletableFuture<Void>> waiting = new ArrayList<>();

    ClientDrain(IntSupplier connected) {
        this.connected = connected;
    }

    /** Completes once no client is connected: at once if none is. */
    CompletionStage<Void> whenNone() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        waiting.add(f);
        check();
        return f;
    }

    void check() {
        if (connected.getAsInt() == 0) {
            List.copyOf(waiting).forEach(f -> f.complete(null));
            waiting.clear();
        }
    }
}
