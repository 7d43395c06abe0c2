package io.sluice.pool.evict;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.fakes.FakeConnector;
import io.sluice.pool.fakes.FakeServerHandle;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Randomness;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JanitorTest {
    static final long MS = Settings.MS;
    static final long S = Settings.S;

    private final VirtualScheduler vt = new VirtualScheduler();
    private final Janitor janitor = new Janitor();

    private Pool pool(Settings s, FakeConnector c) {
        return new Pool(new PoolKey("db", "u"), s.build(), c, PoolEvents.NONE,
                ConnectionLimit.unlimited("db"), ConnectionLimit.unlimited("u"), vt, vt, Randomness.seeded(1));
    }

    @Test
    void idleTimeoutClosesIdleServersButKeepsMinPoolSize() {
        Settings s = new Settings();
        s.poolSize = 5;
        s.minPoolSize = 1;
        s.serverIdleTimeout = 60 * S;
        FakeConnector c = new FakeConnector(vt, 5 * MS);
        Pool p = pool(s, c);
        TestWaiter a = new TestWaiter(1, vt, null);
        TestWaiter b = new TestWaiter(2, vt, null);
        p.checkout(a);
        p.checkout(b);
        vt.runAll(S);
        a.lease.release();
        vt.advance(30 * S);
        b.lease.release();
        vt.advance(31 * S);
        janitor.tick(p, vt.nanoTime());
        assertThat(c.handles.get(0).closeReason()).isEqualTo("server idle timeout");
        assertThat(c.handles.get(1).isClosed()).isFalse();
        vt.advance(60 * S);
        janitor.tick(p, vt.nanoTime());
        assertThat(c.handles.get(1).isClosed()).isFalse(); // min_pool_size = 1 kept
    }

    /** Four servers warm, then a lone client runs a transaction every 500 ms for 40 s, the janitor ticking each second. */
    private Pool lightLoad(boolean roundRobin, FakeConnector c, Set<Long> used) {
        Settings s = new Settings();
        s.poolSize = 5;
        s.minPoolSize = 2;
        s.serverIdleTimeout = 10 * S;
        s.roundRobin = roundRobin;
        Pool p = pool(s, c);
        List<TestWaiter> burst = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            TestWaiter w = new TestWaiter(i, vt, null);
            p.checkout(w);
            burst.add(w);
        }
        vt.runAll(S);
        burst.forEach(w -> w.lease.release());
        assertThat(p.size()).isEqualTo(4);
        for (int step = 0; step < 80; step++) {
            TestWaiter w = new TestWaiter(100 + step, vt, null);
            p.checkout(w);
            assertThat(w.served()).isTrue();
            used.add(w.lease.server().id());
            vt.advance(MS);
            w.lease.release();
            vt.advance(499 * MS);
            if (step % 2 == 1) {
                janitor.tick(p, vt.nanoTime());
            }
        }
        return p;
    }

    @Test
    void underLightLoadLifoLetsSurplusServersIdleOutDownToMinPoolSize() {
        FakeConnector c = new FakeConnector(vt, 5 * MS);
        Set<Long> used = new HashSet<>();
        Pool p = lightLoad(false, c, used);
        assertThat(used).as("the lone client's servers").hasSize(1);
        assertThat(p.size()).isEqualTo(2);
        assertThat(c.handles).filteredOn(FakeServerHandle::isClosed).hasSize(2)
                .allSatisfy(h -> assertThat(h.closeReason()).isEqualTo("server idle timeout"))
                .noneMatch(h -> used.contains(h.id()));
        assertThat(c.attempts).as("nothing reopened").isEqualTo(4);
    }

    @Test
    void underLightLoadRoundRobinKeepsEveryServerBusyEnoughNotToIdleOut() {
        FakeConnector c = new FakeConnector(vt, 5 * MS);
        Set<Long> used = new HashSet<>();
        Pool p = lightLoad(true, c, used);
        assertThat(used).hasSize(4);
        assertThat(p.size()).isEqualTo(4);
        assertThat(c.handles).noneMatch(FakeServerHandle::isClosed);
    }

    @Test
    void replenishOnlyTriesTheGateAndDefersWhileItIsBusy() {
        Settings s = new Settings();
        s.poolSize = 10;
        s.minPoolSize = 5;
        FakeConnector c = FakeConnector.manual(vt);
        Pool p = pool(s, c);
        p.checkout(new TestWaiter(1, vt, null));
        p.checkout(new TestWaiter(2, vt, null));
        assertThat(p.inflight()).isEqualTo(2);

        janitor.tick(p, vt.nanoTime());
        assertThat(p.scaling().replenishDeferred()).isEqualTo(1);
        assertThat(c.attempts).isEqualTo(2);

        c.completeNext();
        c.completeNext();
        vt.advance(10 * S);
        janitor.tick(p, vt.nanoTime());            // not yet a retain cycle later
        assertThat(c.attempts).isEqualTo(2);
        vt.advance(20 * S);
        janitor.tick(p, vt.nanoTime());            // next cycle: two slots, then busy again
        assertThat(c.attempts).isEqualTo(4);
        assertThat(p.scaling().replenishDeferred()).isEqualTo(2);
        c.completeNext();
        c.completeNext();
        vt.runUntilIdle();
        assertThat(p.snapshot().svIdle()).isEqualTo(2);
    }
}
