package io.sluice.pool.evict;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.fakes.FakeConnector;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Randomness;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * PAUSE's and SHUTDOWN WAIT_FOR_SERVERS's waits complete from the engine's events: on the very
 * loop turn the last use ends, with no virtual time passing (nothing polls), and not before.
 */
class PoolDrainTest {
    private final VirtualScheduler vt = new VirtualScheduler();
    private final FakeConnector connector = FakeConnector.manual(vt);
    private final List<String> seen = new ArrayList<>();
    private final PoolEvents log = new PoolEvents() {
        @Override
        public void serverReleased(PoolKey key, long serverId) {
            seen.add("released " + key.database());
        }
    };
    private final PoolRegistry registry = new PoolRegistry(k -> new Settings().build(), connector, log, vt, vt,
            Randomness.seeded(5));

    private TestWaiter lease(Pool p, int n) {
        TestWaiter w = new TestWaiter(n, vt, null);
        p.checkout(w);
        vt.runUntilIdle();
        if (connector.waitingConnects() > 0) {
            connector.completeNext();
            vt.runUntilIdle();
        }
        assertThat(w.served()).isTrue();
        return w;
    }

    @Test
    void quietCompletesWhenTheLastLentServerOfTheDatabaseComesBack() {
        Pool app = registry.pool(new PoolKey("app", "u"));
        Pool other = registry.pool(new PoolKey("other", "u"));
        TestWaiter a1 = lease(app, 1);
        TestWaiter a2 = lease(app, 2);
        lease(other, 3); // stays lent: another database does not hold app's PAUSE

        CompletableFuture<Void> paused = registry.awaitQuiet("app");
        vt.runUntilIdle();
        assertThat(paused).isNotDone();

        a1.lease.release();
        vt.runUntilIdle();
        assertThat(paused).isNotDone();

        long before = vt.nanoTime();
        a2.lease.release();
        vt.runUntilIdle();
        assertThat(paused).isDone();
        assertThat(vt.nanoTime()).as("no timer involved").isEqualTo(before);
        // events still reach the process's listener through the drain
        assertThat(seen).containsExactly("released app", "released app");
        assertThat(registry.awaitQuiet(null)).as("all databases: other still lent").isNotDone();
    }

    @Test
    void aConnectInFlightAndItsQueuedClientKeepThePoolBusyUntilTheLoginFails() {
        Pool app = registry.pool(new PoolKey("app", "u"));
        TestWaiter w = new TestWaiter(1, vt, null);
        app.checkout(w);
        vt.runUntilIdle();
        assertThat(connector.waitingConnects()).isEqualTo(1);

        CompletableFuture<Void> paused = registry.awaitQuiet("app");
        vt.runUntilIdle();
        assertThat(paused).isNotDone();

        connector.rejectNext("28P01", "password authentication failed");
        vt.runUntilIdle();
        assertThat(w.failure).isNotNull();
        assertThat(paused).isDone();
    }

    @Test
    void aQueuedClientThatLeftDoesNotHoldThePause() {
        Settings one = new Settings();
        one.poolSize = 1;
        PoolRegistry small = new PoolRegistry(k -> one.build(), connector, PoolEvents.NONE, vt, vt,
                Randomness.seeded(5));
        Pool app = small.pool(new PoolKey("app", "u"));
        TestWaiter holder = lease(app, 1);
        TestWaiter gone = new TestWaiter(2, vt, null);
        app.checkout(gone);
        vt.runUntilIdle();
        assertThat(app.waitingClients()).isEqualTo(1);

        CompletableFuture<Void> paused = small.awaitQuiet("app");
        gone.leave();
        vt.runUntilIdle();
        assertThat(paused).isNotDone();

        holder.lease.release();
        vt.runUntilIdle();
        assertThat(paused).isDone();
        assertThat(gone.outcomes).isZero();
    }

    @Test
    void noneLentIgnoresIdleServersAndCanBeCancelled() {
        Pool app = registry.pool(new PoolKey("app", "u"));
        TestWaiter a = lease(app, 1);
        TestWaiter b = lease(app, 2);
        a.lease.release();
        vt.runUntilIdle();

        CompletableFuture<Void> cancelled = registry.awaitQuiet("app");
        cancelled.cancel(false);
        CompletableFuture<Void> shutdown = registry.awaitNoneLent();
        vt.runUntilIdle();
        assertThat(shutdown).isNotDone();

        b.lease.release();
        vt.runUntilIdle();
        assertThat(shutdown).isDone();
        assertThat(app.snapshot().svIdle()).isEqualTo(2);
        assertThat(cancelled).isCancelled();
    }
}
