package io.sluice.pool.pressure;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;
import io.sluice.pool.fakes.FakeConnector;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.util.Randomness;
import java.util.ArrayList;
import java.util.List;

/** One pool on virtual time with a fake connector, plus helpers to warm it and to send clients. */
final class Harness {
    static final long MS = Settings.MS;
    static final long S = Settings.S;

    final VirtualScheduler vt = new VirtualScheduler();
    final FakeConnector connector;
    final Settings settings;
    final List<TestWaiter> grants = new ArrayList<>();
    final List<Long> waits = new ArrayList<>();
    /** The waiter each growth into the reserve was for. */
    final List<Waiter> reserveFor = new ArrayList<>();
    final Pool pool;
    private int numbers;

    Harness(Settings settings, long connectDelay) {
        this(settings, connectDelay, ConnectionLimit.unlimited("db"), ConnectionLimit.unlimited("user"));
    }

    Harness(Settings settings, long connectDelay, ConnectionLimit db, ConnectionLimit user) {
        this.settings = settings;
        this.connector = connectDelay < 0 ? FakeConnector.manual(vt) : new FakeConnector(vt, connectDelay);
        PoolEvents events = new PoolEvents() {
            @Override
            public void checkoutWaited(PoolKey key, long nanos) {
                waits.add(nanos);
            }

            @Override
            public void reserveUsed(PoolKey key, Waiter oldest) {
                reserveFor.add(oldest);
            }
        };
        this.pool = new Pool(new PoolKey("db", "user"), settings.build(), connector, events, db, user,
                vt, vt, Randomness.seeded(42));
    }

    TestWaiter waiter() {
        return new TestWaiter(++numbers, vt, grants);
    }

    TestWaiter checkout() {
        TestWaiter w = waiter();
        pool.checkout(w);
        return w;
    }

    TestWaiter checkoutHolding(long holdNanos) {
        TestWaiter w = waiter().holdFor(holdNanos, l -> l.transactionDone(holdNanos));
        pool.checkout(w);
        return w;
    }

    /** Opens {@code n} connections and parks them idle (connector must be automatic). */
    void warm(int n) {
        List<TestWaiter> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ws.add(checkout());
        }
        vt.runAll(10 * S);
        for (TestWaiter w : ws) {
            assertThat(w.served()).isTrue();
            w.lease.release();
        }
        vt.runUntilIdle();
        assertThat(pool.snapshot().svIdle()).isEqualTo(n);
        connector.resetPeaks();
        grants.clear();
        waits.clear();
    }
}
