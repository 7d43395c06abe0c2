package io.sluice.pool.coord;

import static io.sluice.pool.coord.CoordHarness.MS;
import static io.sluice.pool.coord.CoordHarness.S;
import static io.sluice.pool.coord.CoordHarness.closedCount;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.fakes.FakeServerHandle;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.pressure.Pool;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Coordinator phases on virtual time: pools of one database sharing max_db_connections. */
class CoordinatorTest {

    /** A pool that goes straight to the burst gate (no anticipation), so phase order is deterministic. */
    private static Settings settings(int poolSize) {
        Settings s = new Settings();
        s.poolSize = poolSize;
        s.warmPoolRatioPercent = 100;
        return s;
    }

    @Test
    void reserveFirstIsTriedBeforeEviction() {
        CoordHarness h = new CoordHarness(2, 1, 0, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        Pool b = h.pool("b", settings(10));
        List<FakeServerHandle> aServers = h.warm(a, 2);
        h.vt.advance(60 * S);                               // A's idle connections are evictable

        TestWaiter first = h.checkout(b);
        h.vt.runAll(S);
        assertThat(first.served()).isTrue();
        assertThat(closedCount(aServers)).isZero();          // reserve-first: nobody evicted
        assertThat(h.snap().reserveAcquisitions()).isEqualTo(1);
        assertThat(h.snap().reserveUsed()).isEqualTo(1);

        TestWaiter second = h.checkout(b);                  // reserve full: now phase B evicts
        h.vt.runAll(S);
        assertThat(second.served()).isTrue();
        assertThat(closedCount(aServers)).isEqualTo(1);
        assertThat(aServers.stream().filter(FakeServerHandle::isClosed).findFirst().orElseThrow().closeReason())
                .isEqualTo("evicted");
        assertThat(h.snap().evictions()).isEqualTo(1);
        assertThat(h.snap().current()).isEqualTo(3);
    }

    @Test
    void evictionPicksTheSlowestPool() {
        CoordHarness h = new CoordHarness(4, 0, 0, 30 * S, MS);
        Pool fast = h.pool("fast", settings(10));
        Pool slow = h.pool("slow", settings(10));
        Pool b = h.pool("b", settings(10));
        List<FakeServerHandle> fastServers = h.warm(fast, 2);
        List<FakeServerHandle> slowServers = h.warm(slow, 2);
        for (int i = 0; i < 100; i++) {
            fast.recordTransaction(MS);
            slow.recordTransaction(15 * MS);
        }
        h.vt.advance(60 * S);

        TestWaiter w = h.checkout(b);
        h.vt.runAll(S);

        assertThat(w.served()).isTrue();
        assertThat(closedCount(slowServers)).isEqualTo(1);
        assertThat(closedCount(fastServers)).isZero();
    }

    @Test
    void spareAboveEffectiveMinimumBreaksTies() {
        CoordHarness h = new CoordHarness(5, 0, 0, 30 * S, MS);
        Settings guarded = settings(10);
        guarded.minGuaranteedPoolSize = 2;                   // 3 connections, spare 1
        Pool small = h.pool("small", guarded);
        Pool big = h.pool("big", settings(10));              // 2 connections, spare 2
        List<FakeServerHandle> smallServers = h.warm(small, 3);
        List<FakeServerHandle> bigServers = h.warm(big, 2);
        h.vt.advance(60 * S);

        TestWaiter w = h.checkout(h.pool("b", settings(10)));
        h.vt.runAll(S);

        assertThat(w.served()).isTrue();
        assertThat(closedCount(bigServers)).isEqualTo(1);
        assertThat(closedCount(smallServers)).isZero();
    }

    @Test
    void exhaustionReturnsTheExactErrorText() {
        CoordHarness h = new CoordHarness(2, 0, 3 * S, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        h.warm(a, 2);
        h.checkout(a);                                       // both of A's servers busy: nothing to evict
        h.checkout(a);
        TestWaiter w = h.checkout(h.pool("b", settings(10)));
        h.vt.advance(2999 * MS);
        assertThat(w.outcomes).isZero();                     // phase C waits the whole budget
        h.vt.advance(2 * MS);

        assertThat(w.failure).isEqualTo(new CheckoutFailure(CheckoutFailure.Kind.LIMIT, "53300",
                "all server connections to database 'db' are in use (max=2, reserve=0/0)"));
        assertThat(h.snap().exhaustions()).isEqualTo(1);
    }

    @Test
    void permitReleaseWakeUpTakesTheFreeSlotAndClosesNoNeighbourBackend() {
        CoordHarness h = new CoordHarness(3, 0, 0, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        Pool b = h.pool("b", settings(10));
        h.warm(a, 3);
        TestWaiter a1 = h.checkout(a);
        TestWaiter a2 = h.checkout(a);
        TestWaiter a3 = h.checkout(a);
        h.vt.runUntilIdle();
        h.vt.advance(60 * S);                               // all of A's connections leased, all old
        TestWaiter w = h.checkout(b);
        h.vt.runUntilIdle();
        assertThat(w.served()).isFalse();                    // nothing idle to evict: phase C

        // In one engine turn A drops a connection (permit freed) and returns another (evictable).
        a2.lease.discard("client gone mid-query");
        a1.lease.release();
        h.vt.advance(10 * MS);

        assertThat(w.served()).isTrue();
        assertThat(h.snap().evictions()).isZero();
        assertThat(((FakeServerHandle) a1.lease.server()).isClosed()).isFalse();
        assertThat(a.snapshot().svIdle()).isEqualTo(1);
        assertThat(a3.served()).isTrue();
    }

    @Test
    void gateFirstOrderingNeverHoldsMorePermitsThanConnectsInFlightPhantomPermitRegression() {
        CoordHarness h = new CoordHarness(10, 5, 0, 30 * S, -1);
        Settings s = settings(40);
        s.maxParallelCreates = 2;
        Pool p = h.pool("u", s);
        List<TestWaiter> clients = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            clients.add(h.checkout(p));
        }
        h.vt.runUntilIdle();
        for (int round = 0; round < 20 && h.connector.waitingConnects() > 0; round++) {
            assertThat(h.snap().current()).isEqualTo(h.connector.inflight + h.connector.live);
            assertThat(h.connector.inflight).isLessThanOrEqualTo(2);
            h.connector.completeNext();
            h.vt.runUntilIdle();
        }
        assertThat(h.snap().reserveAcquisitions()).isEqualTo(5);   // reserve only once main (10) was really full
        assertThat(h.connector.maxLive).isEqualTo(15);
        assertThat(clients.stream().filter(TestWaiter::served)).hasSize(15);
    }

    @Test
    void aStarvingPoolWinsTheReserve() {
        CoordHarness h = new CoordHarness(2, 1, 0, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        h.warm(a, 2);
        h.checkout(a);                                        // both busy: nothing to evict
        h.checkout(a);
        Pool busy = h.pool("busy", settings(10));
        Settings guarded = settings(10);
        guarded.minGuaranteedPoolSize = 1;
        Pool starving = h.pool("starving", guarded);

        TestWaiter b1 = h.checkout(busy);                     // asks first, with more queued clients
        TestWaiter b2 = h.checkout(busy);
        TestWaiter s1 = h.checkout(starving);
        h.vt.advance(10 * MS);

        assertThat(s1.served()).isTrue();
        assertThat(b1.served()).isFalse();
        assertThat(b2.served()).isFalse();
        assertThat(h.snap().reserveUsed()).isEqualTo(1);
    }

    @Test
    void reservePermitsAreUpgradedToMainWithinOneRetainCycle() {
        CoordHarness h = new CoordHarness(2, 2, 0, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        Pool b = h.pool("b", settings(10));
        List<FakeServerHandle> aServers = h.warm(a, 2);
        List<FakeServerHandle> bServers = h.warm(b, 1);       // young A: B got a reserve permit
        assertThat(h.snap().reserveUsed()).isEqualTo(1);

        a.reconnect("database configuration changed", true);       // main gets room (A's idle servers close)
        h.vt.runUntilIdle();
        assertThat(closedCount(aServers)).isEqualTo(2);
        h.janitor.tick(b, h.vt.nanoTime());

        assertThat(h.snap().reserveUsed()).isZero();
        assertThat(h.snap().current()).isEqualTo(1);
        assertThat(closedCount(bServers)).isZero();            // upgraded, not reconnected
    }

    @Test
    void retainClosesIdleReserveConnectionsThatCannotBeUpgraded() {
        CoordHarness h = new CoordHarness(2, 2, 0, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        Pool b = h.pool("b", settings(10));
        h.warm(a, 2);
        List<FakeServerHandle> bServers = h.warm(b, 1);
        h.janitor.tick(b, h.vt.nanoTime());                    // idle 0 s: kept
        assertThat(closedCount(bServers)).isZero();
        h.vt.advance(31 * S);
        h.janitor.tick(b, h.vt.nanoTime());
        assertThat(bServers.get(0).closeReason()).isEqualTo("reserve connection not needed");
        assertThat(h.snap().reserveUsed()).isZero();
    }

    @Test
    void retainUpgradesTheServerHandedOutNextAndClosesTheColdestReserveOne() {
        for (boolean rr : new boolean[] {false, true}) {
            CoordHarness h = new CoordHarness(2, 2, 0, 30 * S, MS);
            Pool a = h.pool("a", settings(10));
            Settings bs = settings(10);
            bs.roundRobin = rr;
            Pool b = h.pool("b", bs);
            h.warm(a, 2);                                      // main full, A young: B gets reserve permits
            TestWaiter first = h.checkout(b);
            TestWaiter second = h.checkout(b);
            h.vt.runAll(S);
            FakeServerHandle returnedFirst = (FakeServerHandle) first.lease.server();
            FakeServerHandle returnedLast = (FakeServerHandle) second.lease.server();
            first.lease.release();
            h.vt.advance(MS);
            second.lease.release();
            assertThat(h.snap().reserveUsed()).isEqualTo(2);
            h.vt.advance(31 * S);                              // both idle past min_connection_lifetime
            h.checkout(a).lease.discard("test");               // room in main for one of them
            h.vt.runUntilIdle();

            h.janitor.tick(b, h.vt.nanoTime());
            // server_round_robin = 0 hands out the one returned last next: it keeps a main permit.
            FakeServerHandle kept = rr ? returnedFirst : returnedLast;
            FakeServerHandle closed = rr ? returnedLast : returnedFirst;
            assertThat(kept.isClosed()).as("rr=%s", rr).isFalse();
            assertThat(closed.closeReason()).as("rr=%s", rr).isEqualTo("reserve connection not needed");
            assertThat(h.snap().reserveUsed()).isZero();
        }
    }

    @Test
    void replenishOnlyTryAcquiresAPermit() {
        CoordHarness h = new CoordHarness(2, 1, 0, 30 * S, MS);
        Pool a = h.pool("a", settings(10));
        h.warm(a, 2);
        h.vt.advance(60 * S);
        Settings withMin = settings(10);
        withMin.minPoolSize = 2;
        Pool b = h.pool("b", withMin);
        h.janitor.tick(b, h.vt.nanoTime());
        h.vt.runAll(S);
        assertThat(b.size()).isZero();
        assertThat(h.snap().evictions()).isZero();
        assertThat(h.snap().reserveAcquisitions()).isZero();
    }
}
