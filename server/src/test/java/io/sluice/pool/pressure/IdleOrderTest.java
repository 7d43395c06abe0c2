package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which idle server a checkout gets, as PgBouncer's server_round_robin decides: 0 (default)
 * the one returned last, so a lone client's consecutive transactions stay on one server;
 * 1 the one returned earliest, so servers rotate. Waiting clients stay FIFO either way.
 */
class IdleOrderTest {

    private final List<Long> returnOrder = new ArrayList<>();

    /** A pool with three servers, returned one millisecond apart in {@link #returnOrder}. */
    private Harness harness(boolean roundRobin) {
        Settings s = new Settings();
        s.poolSize = 5;
        s.roundRobin = roundRobin;
        Harness h = new Harness(s, 5 * MS);
        List<TestWaiter> ws = List.of(h.checkout(), h.checkout(), h.checkout());
        h.vt.runAll(S);
        returnOrder.clear();
        for (TestWaiter w : ws) {
            assertThat(w.served()).isTrue();
            returnOrder.add(w.lease.server().id());
            w.lease.release();
            h.vt.advance(MS);
        }
        assertThat(h.pool.snapshot().svIdle()).isEqualTo(3);
        return h;
    }

    /** {@code n} checkouts one after another, each released before the next, as a lone client does. */
    private static List<Long> consecutive(Harness h, int n) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TestWaiter w = h.checkout();
            assertThat(w.served()).as("checkout %d served from the idle queue at once", i).isTrue();
            ids.add(w.lease.server().id());
            h.vt.advance(MS);
            w.lease.release();
            h.vt.runUntilIdle();
        }
        return ids;
    }

    @Test
    void lifoGivesALoneClientTheSameServerEveryTime() {
        Harness h = harness(false);
        List<Long> ids = consecutive(h, 10);
        assertThat(ids).containsOnly(returnOrder.get(2));
        assertThat(h.connector.attempts).as("no new connects").isEqualTo(3);
        assertThat(h.pool.snapshot().svIdle()).isEqualTo(3);
    }

    @Test
    void roundRobinRotatesThroughEveryIdleServerOldestFirst() {
        Harness h = harness(true);
        List<Long> ids = consecutive(h, 6);
        List<Long> twice = new ArrayList<>(returnOrder);
        twice.addAll(returnOrder);
        assertThat(ids).containsExactlyElementsOf(twice);
    }

    @Test
    void reloadFlipsTheOrderWithoutReorderingTheQueue() {
        Harness h = harness(false);
        assertThat(consecutive(h, 2)).containsOnly(returnOrder.get(2));

        h.settings.roundRobin = true;
        h.pool.updateSettings(h.settings.build());
        // Longest idle now: the first two returned, then the one the lone client used.
        assertThat(consecutive(h, 3)).containsExactlyElementsOf(returnOrder);

        h.settings.roundRobin = false;
        h.pool.updateSettings(h.settings.build());
        assertThat(consecutive(h, 2)).containsOnly(returnOrder.get(2));
    }

    @Test
    void idleServersAreListedLongestIdleFirstWhateverTheOrder() {
        for (boolean rr : new boolean[] {false, true}) {
            Harness h = harness(rr);
            long used = consecutive(h, 1).get(0);
            List<Long> expected = new ArrayList<>(returnOrder);
            expected.remove(used);
            expected.add(used);
            assertThat(h.pool.idleServers()).as("server_round_robin=%s", rr)
                    .extracting(s -> s.handle().id()).containsExactlyElementsOf(expected);
            assertThat(h.pool.idleServers()).extracting(s -> s.idleFor(h.vt.nanoTime()))
                    .isSortedAccordingTo(java.util.Comparator.reverseOrder());
        }
    }
}
