package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClientDrainTest {
    private final AtomicInteger connected = new AtomicInteger();
    private final ClientDrain drain = new ClientDrain(connected::get);

    @Test
    void withNoClientTheWaitIsOverAtOnce() {
        assertThat(drain.whenNone().toCompletableFuture()).isCompleted();
    }

    @Test
    void theWaitEndsWhenTheLastClientHasGoneAndNotBefore() {
        connected.set(2);
        CompletableFuture<Void> first = drain.whenNone().toCompletableFuture();
        CompletableFuture<Void> second = drain.whenNone().toCompletableFuture();

        connected.set(1);
        drain.check();
        assertThat(first).isNotDone();

        connected.set(0);
        drain.check();
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
    }
}
