package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Phase 5: a pool keeps growing while returns keep coming, and the burst budget keeps FIFO order. */
class BurstGateTest {

    @Test
    void poolGrowsWhileReturnsKeepComing() {
        Settings s = new Settings();
        s.poolSize = 12;
        s.warmPoolRatioPercent = 0;   // always in the anticipation zone
        s.fastRetries = 0;
        Harness h = new Harness(s, 5 * MS);
        h.warm(8);
        for (int i = 0; i < 50; i++) {
            h.pool.recordTransaction(20 * MS); // p99 ≈ 20 ms: handoff cap ≈ 40 ms, burst budget ≈ 40 ms
        }
        h.connector.delay(300 * MS);     // slow connects keep the gate full

        List<TestWaiter> clients = new ArrayList<>();
        for (int t = 0; t < 1500; t++) {  // demand ≈ 10 concurrent > 8 connections
            clients.add(h.checkoutHolding(20 * MS));
            h.vt.advanceMillis(2);
        }
        h.vt.runAll(60 * S);

        assertThat(clients).allMatch(TestWaiter::served);
        // Clients who had to wait for a return grow the pool (DemandGrowth) before any budget runs out.
        assertThat(h.connector.maxLive).isGreaterThan(8).isLessThanOrEqualTo(12);
        assertThat(h.connector.maxInflight).isLessThanOrEqualTo(2);
        assertThat(h.pool.scaling().createFallback()).isGreaterThan(0);
    }

    @Test
    void coldPoolSkipsAnticipationAndConnectsAtMostTwoAtATime() {
        Settings s = new Settings();
        s.poolSize = 40;
        Harness h = new Harness(s, 10 * MS);
        for (int i = 0; i < 6; i++) {
            h.checkout();
        }
        assertThat(h.pool.inflight()).isEqualTo(2);
        assertThat(h.pool.snapshot().svLogin()).isEqualTo(2);
        assertThat(h.pool.scaling().anticipationTimeout()).isZero();
        h.vt.runAll(S);
        assertThat(h.connector.attempts).isEqualTo(6);
        assertThat(h.connector.maxInflight).isEqualTo(2);
    }

    /** Checkouts whose gate budget ran out are still served in arrival order once the pool is full. */
    @Test
    void budgetExhaustedCheckoutKeepsItsPlaceOncePoolIsFull() {
        Settings s = new Settings();
        s.poolSize = 4;
        s.warmPoolRatioPercent = 0;
        s.fastRetries = 0;
        s.maxParallelCreates = 1;      // the pool fills one connect at a time: budgets run out meanwhile
        Harness h = new Harness(s, 50 * MS);
        h.warm(2);
        for (int i = 0; i < 50; i++) {
            h.pool.recordTransaction(10 * MS);
        }
        List<TestWaiter> clients = new ArrayList<>();
        for (int t = 0; t < 200; t++) {   // one arrival per ms, capacity 0.4 per ms: a long FIFO line
            clients.add(h.checkoutHolding(10 * MS));
            h.vt.advanceMillis(1);
        }
        h.vt.runAll(60 * S);

        assertThat(clients).allMatch(TestWaiter::served);
        assertThat(h.pool.scaling().gateBudgetExhausted()).isGreaterThan(0);
        // served in arrival order, give or take the two served by their own connects: while one
        // connects (50 ms) returns serve those behind it, 2 servers x 50 ms / 10 ms = 10 of them
        List<Integer> order = h.grants.stream().map(w -> w.number).toList();
        for (int i = 0; i < order.size(); i++) {
            for (int j = i + 1; j < order.size(); j++) {
                assertThat(order.get(i) - order.get(j)).as("client %d served before %d", order.get(i), order.get(j))
                        .isLessThanOrEqualTo(10);
            }
        }
    }
}
