package io.sluice.pool.coord;

import static io.sluice.pool.coord.CoordHarness.MS;
import static io.sluice.pool.coord.CoordHarness.S;
import static io.sluice.pool.coord.CoordHarness.closedCount;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.fakes.FakeServerHandle;
import io.sluice.pool.fakes.LoopingClient;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.pressure.Pool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pool of a full database is never served later than PgBouncer would serve it: PgBouncer
 * evicts the longest-idle server of any pool of the database at once. Sluice evicts at once
 * whenever the pool that needs a server has none, or the neighbour holds at least two more servers
 * than it (a move toward an even split cannot ping-pong), and otherwise only connections idle for
 * min_connection_lifetime since their last use. min_pool_size shields nothing (as in PgBouncer);
 * min_guaranteed_pool_size does.
 */
class StarvationTest {
    static final long HOLD = 20 * MS;
    static final long THINK = MS / 10;

    private static Settings settings() {
        Settings s = new Settings();
        s.poolSize = 10;
        return s;
    }

    /**
     * Issue 16's scenario, default min_connection_lifetime (30 s): A runs 10 clients × 20 ms
     * for 2 s, B starts 5 clients × 20 ms 1.5 s in and runs 3 s. PgBouncer 1.18 served B at 223
     * tps there (669 transactions); B must get at least that, and A's connections go by eviction.
     */
    @Test
    void issue16ScenarioServesBAtLeastAsPgBouncerDid() {
        CoordHarness h = new CoordHarness(10, 0, 0, 30 * S, 2 * MS);
        Pool a = h.pool("a", settings());
        Pool b = h.pool("b", settings());
        List<LoopingClient> as = new ArrayList<>();
        List<LoopingClient> bs = new ArrayList<>();
        long t0 = h.vt.nanoTime();
        for (int i = 0; i < 10; i++) {
            as.add(LoopingClient.start(h.vt, a, HOLD, THINK, t0, t0 + 2 * S));
        }
        for (int i = 0; i < 5; i++) {
            bs.add(LoopingClient.start(h.vt, b, HOLD, THINK, t0 + 1500 * MS, t0 + 4500 * MS));
        }
        h.vt.advance(1400 * MS);
        assertThat(a.size()).as("A holds the database before B comes").isEqualTo(10);
        h.vt.runAll(10 * S);

        int bDone = bs.stream().mapToInt(c -> c.transactions).sum();
        int aDone = as.stream().mapToInt(c -> c.transactions).sum();
        System.out.printf("issue 16 virtual: A %d, B %d transactions, evictions %d, B servers %d%n",
                aDone, bDone, h.snap().evictions(), b.size());
        assertThat(bDone).as("B's transactions in its 3 s").isGreaterThanOrEqualTo(669);
        assertThat(aDone).as("A keeps most of its throughput").isGreaterThan((int) (0.8 * 10 * 2 * S / (HOLD + THINK)));
        assertThat(h.snap().evictions()).isBetween(4L, 10L);       // B's five, a handful at most: no ping-pong
        assertThat(h.snap().exhaustions()).isZero();
        assertThat(h.connector.maxLive).isLessThanOrEqualTo(10);
        assertThat(as).allMatch(c -> c.failure == null);
        assertThat(bs).allMatch(c -> c.failure == null);
    }

    @Test
    void aPoolThatStartedAndWentIdleIsEvictedAtOnceWhateverTheFloor() {
        CoordHarness h = new CoordHarness(4, 0, 0, 30 * S, MS);
        Pool a = h.pool("a", settings());
        List<FakeServerHandle> aServers = h.warm(a, 4);      // born now, idle now
        TestWaiter w = h.checkout(h.pool("b", settings()));
        h.vt.advance(5 * MS);

        assertThat(w.served()).isTrue();
        assertThat(closedCount(aServers)).isEqualTo(1);
        assertThat(h.snap().evictions()).isEqualTo(1);
    }

    /**
     * A pool with no server cannot serve anyone: it takes a neighbour's idle server at once even
     * when that neighbour holds just the one (max_db_connections = 1 with two users), and the
     * neighbour takes it back the same way, as PgBouncer trades it.
     */
    @Test
    void aPoolWithNoServerTakesANeighboursOnlyIdleServerAtOnce() {
        CoordHarness h = new CoordHarness(1, 0, 0, 30 * S, MS);
        Pool a = h.pool("a", settings());
        Pool b = h.pool("b", settings());
        List<FakeServerHandle> aServers = h.warm(a, 1);      // used just now
        TestWaiter bClient = h.checkout(b);
        h.vt.advance(5 * MS);
        assertThat(bClient.served()).isTrue();
        assertThat(closedCount(aServers)).isEqualTo(1);

        bClient.lease.release();
        TestWaiter aClient = h.checkout(a);
        h.vt.advance(5 * MS);
        assertThat(aClient.served()).as("A, now without a server, takes B's back").isTrue();
        assertThat(h.snap().evictions()).isEqualTo(2);
        assertThat(h.connector.maxLive).isLessThanOrEqualTo(1);
    }

    @Test
    void evictionAtOnceStopsAtAnEvenSplitThenWaitsForTheIdleFloor() {
        CoordHarness h = new CoordHarness(10, 0, 0, 30 * S, MS);
        Pool a = h.pool("a", settings());
        Pool b = h.pool("b", settings());
        h.warm(a, 10);
        List<TestWaiter> bClients = h.checkouts(b, 6);
        h.vt.advance(100 * MS);
        assertThat(bClients.stream().filter(TestWaiter::served)).hasSize(5);
        assertThat(a.size()).isEqualTo(5);

        h.vt.advance(29 * S);                                  // A's rest has idled 29 s
        assertThat(bClients.stream().filter(TestWaiter::served)).hasSize(5);
        h.vt.advance(2 * S);                                   // ...and now 31 s: the floor is passed
        assertThat(bClients).allMatch(TestWaiter::served);
        assertThat(h.snap().evictions()).isEqualTo(6);
    }

    @Test
    void theFloorCountsFromLastUseNotFromBirth() {
        CoordHarness h = new CoordHarness(2, 0, 0, 30 * S, MS);
        Pool a = h.pool("a", settings());
        Pool b = h.pool("b", settings());
        h.warm(a, 1);
        h.warm(b, 1);
        h.vt.advance(60 * S);                                  // A's server is 60 s old...
        h.checkout(a).lease.release();                         // ...and used just now
        TestWaiter held = h.checkout(b);                       // B's one server busy: B needs a second
        TestWaiter w = h.checkout(b);
        h.vt.advance(29 * S);
        assertThat(held.served()).isTrue();
        assertThat(w.served()).as("an even split: A's server is shielded 30 s after its last use").isFalse();
        h.vt.advance(2 * S);
        assertThat(w.served()).isTrue();
        assertThat(h.snap().evictions()).isEqualTo(1);
    }

    @Test
    void minPoolSizeShieldsNothingButMinGuaranteedPoolSizeDoes() {
        CoordHarness h = new CoordHarness(6, 0, 0, 30 * S, MS);
        Settings withMin = settings();
        withMin.minPoolSize = 3;
        Settings guaranteed = settings();
        guaranteed.minGuaranteedPoolSize = 3;
        Pool minPool = h.pool("min", withMin);
        Pool guarded = h.pool("guarded", guaranteed);
        List<FakeServerHandle> minServers = h.warm(minPool, 3);
        List<FakeServerHandle> guardedServers = h.warm(guarded, 3);
        h.vt.advance(60 * S);

        Pool b = h.pool("b", settings());
        List<TestWaiter> bClients = h.checkouts(b, 4);
        h.vt.advance(100 * MS);

        assertThat(closedCount(guardedServers)).isZero();
        assertThat(closedCount(minServers)).isEqualTo(3);
        assertThat(bClients.stream().filter(TestWaiter::served)).hasSize(3);
    }
}
