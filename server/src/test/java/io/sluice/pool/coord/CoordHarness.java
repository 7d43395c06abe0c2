package io.sluice.pool.coord;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.evict.Janitor;
import io.sluice.pool.evict.PoolEvictionSource;
import io.sluice.pool.fakes.FakeConnector;
import io.sluice.pool.fakes.FakeServerHandle;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Randomness;
import java.util.ArrayList;
import java.util.List;

/** Several user pools of database "db" under one coordinator, on virtual time with one fake connector. */
final class CoordHarness {
    static final long MS = Settings.MS;
    static final long S = Settings.S;

    final VirtualScheduler vt = new VirtualScheduler();
    final FakeConnector connector;
    final List<Pool> pools = new ArrayList<>();
    final Coordinator coordinator;
    final Janitor janitor = new Janitor();
    private int numbers;

    CoordHarness(int max, int reserve, long waitTimeout, long minLifetime, long connectDelay) {
        connector = connectDelay < 0 ? FakeConnector.manual(vt) : new FakeConnector(vt, connectDelay);
        coordinator = new Coordinator("db", max, reserve, waitTimeout, minLifetime,
                new PoolEvictionSource(() -> List.copyOf(pools), vt), vt, vt);
    }

    Pool pool(String user, Settings s) {
        Pool p = new Pool(new PoolKey("db", user), s.build(), connector, PoolEvents.NONE,
                ConnectionLimit.unlimited("db"), ConnectionLimit.unlimited(user), coordinator, vt, vt,
                Randomness.seeded(pools.size() + 7));
        pools.add(p);
        return p;
    }

    TestWaiter checkout(Pool p) {
        TestWaiter w = new TestWaiter(++numbers, vt, null);
        p.checkout(w);
        return w;
    }

    /** {@code n} checkouts of {@code p}, in order. */
    List<TestWaiter> checkouts(Pool p, int n) {
        List<TestWaiter> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ws.add(checkout(p));
        }
        return ws;
    }

    /** Opens {@code n} connections in {@code p} and parks them idle. */
    List<FakeServerHandle> warm(Pool p, int n) {
        int before = connector.handles.size();
        List<TestWaiter> ws = checkouts(p, n);
        vt.runAll(10 * S);
        for (TestWaiter w : ws) {
            assertThat(w.served()).isTrue();
            w.lease.release();
        }
        vt.runUntilIdle();
        assertThat(p.snapshot().svIdle()).isEqualTo(n);
        return List.copyOf(connector.handles.subList(before, connector.handles.size()));
    }

    CoordinatorSnapshot snap() {
        return coordinator.snapshot();
    }

    static long closedCount(List<FakeServerHandle> hs) {
        return hs.stream().filter(FakeServerHandle::isClosed).count();
    }
}
