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
import org.junit.jupiter.api.Test;

class PoolRegistryTest {
    private final VirtualScheduler vt = new VirtualScheduler();
    private final FakeConnector connector = new FakeConnector(vt, Settings.MS);

    private PoolRegistry registry(Settings s) {
        return new PoolRegistry(k -> s.build(), connector, PoolEvents.NONE, vt, vt, Randomness.seeded(3));
    }

    @Test
    void createsPoolsOnDemandAndListsThemInShowOrder() {
        PoolRegistry r = registry(new Settings());
        Pool b = r.pool(new PoolKey("b", "x"));
        Pool a = r.pool(new PoolKey("a", "y"));
        assertThat(r.pool(new PoolKey("b", "x"))).isSameAs(b);
        assertThat(r.pools()).containsExactly(a, b);
        assertThat(r.snapshots()).extracting(ps -> ps.key().database()).containsExactly("a", "b");
        assertThat(r.scaling()).hasSize(2);
    }

    @Test
    void userLimitKeepsAClientWaitingUntilAConnectionOfThatUserCloses() {
        Settings s = new Settings();
        s.maxUserConnections = 1;
        s.queryWaitTimeout = 10 * Settings.S;
        PoolRegistry r = registry(s);
        Pool one = r.pool(new PoolKey("db1", "u"));
        Pool two = r.pool(new PoolKey("db2", "u"));
        TestWaiter first = new TestWaiter(1, vt, null);
        one.checkout(first);
        vt.runAll(Settings.S);
        assertThat(first.served()).isTrue();

        TestWaiter second = new TestWaiter(2, vt, null);
        two.checkout(second);
        vt.advance(2 * Settings.S);
        assertThat(second.outcomes).isZero();
        assertThat(r.userLimit("u").used()).isEqualTo(1);

        first.lease.discard("done");
        vt.runAll(Settings.S);
        assertThat(second.served()).isTrue();
        assertThat(connector.maxLive).isEqualTo(1);
    }

    @Test
    void reconnectPerDatabaseOnlyTouchesThatDatabase() {
        PoolRegistry r = registry(new Settings());
        Pool a = r.pool(new PoolKey("a", "u"));
        Pool b = r.pool(new PoolKey("b", "u"));
        assertThat(r.reconnect("a")).isEqualTo(1);
        assertThat(a.epoch()).isEqualTo(1);
        assertThat(b.epoch()).isZero();
    }

    @Test
    void closeAllFailsWaitersAndRefusesNewCheckouts() {
        Settings s = new Settings();
        s.poolSize = 1;
        PoolRegistry r = registry(s);
        Pool p = r.pool(new PoolKey("a", "u"));
        TestWaiter holder = new TestWaiter(1, vt, null);
        p.checkout(holder);
        vt.runAll(Settings.S);
        TestWaiter waiting = new TestWaiter(2, vt, null);
        p.checkout(waiting);
        r.closeAll("shutting down");
        assertThat(waiting.failure.kind()).isEqualTo(io.sluice.pool.CheckoutFailure.Kind.CLOSED);
        holder.lease.release();
        assertThat(connector.live).isZero();
    }
}
