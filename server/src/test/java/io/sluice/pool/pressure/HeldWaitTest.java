package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import org.junit.jupiter.api.Test;

/** A request that already waited elsewhere (held by PAUSE) has only what is left of query_wait_timeout. */
class HeldWaitTest {

    private static Harness fullPool() {
        Settings s = new Settings();
        s.poolSize = 1;
        s.queryWaitTimeout = 1000 * MS;
        Harness h = new Harness(s, 5 * MS);
        h.checkout();              // takes the only server, and keeps it
        h.vt.advanceMillis(5);
        return h;
    }

    @Test
    void timeHeldCountsAgainstTheBudget() {
        Harness h = fullPool();
        TestWaiter held = h.waiter();
        h.pool.checkout(held, 700 * MS);

        h.vt.advanceMillis(299);
        assertThat(held.failure).isNull();
        h.vt.advanceMillis(2);
        assertThat(held.failure).isNotNull();
        assertThat(held.failure.kind()).isEqualTo(CheckoutFailure.Kind.WAIT_TIMEOUT);
        assertThat(held.failure.message()).isEqualTo("query_wait_timeout");
    }

    @Test
    void aRequestHeldPastItsBudgetFailsAtOnce() {
        Harness h = fullPool();
        TestWaiter held = h.waiter();
        h.pool.checkout(held, 1000 * MS);
        assertThat(held.failure).isEqualTo(CheckoutFailure.waitTimeout());
    }

    @Test
    void notHeldMeansTheWholeBudget() {
        Harness h = fullPool();
        TestWaiter w = h.waiter();
        h.pool.checkout(w, 0);
        h.vt.advanceMillis(999);
        assertThat(w.failure).isNull();
        h.vt.advanceMillis(2);
        assertThat(w.failure).isNotNull();
    }
}
