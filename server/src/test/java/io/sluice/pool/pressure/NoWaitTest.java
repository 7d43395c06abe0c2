package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import org.junit.jupiter.api.Test;

/** query_wait_timeout = 0: idle connection or fresh connect, never wait. */
class NoWaitTest {

    private static Harness harness(int poolSize) {
        Settings s = new Settings();
        s.poolSize = poolSize;
        s.queryWaitTimeout = 0;
        return new Harness(s, 5 * MS);
    }

    @Test
    void takesIdleOrConnectsButNeverWaits() {
        Harness h = harness(3);
        TestWaiter a = h.checkout();          // connect
        TestWaiter b = h.checkout();          // connect (second slot)
        TestWaiter c = h.checkout();          // gate full: fails at once
        assertThat(c.failure).isNotNull();
        assertThat(c.failure.kind()).isEqualTo(CheckoutFailure.Kind.WAIT_TIMEOUT);
        assertThat(c.failure.message()).isEqualTo("query_wait_timeout");
        h.vt.advanceMillis(5);
        assertThat(a.served()).isTrue();
        assertThat(b.served()).isTrue();
        a.lease.release();
        TestWaiter d = h.checkout();          // idle: served synchronously
        assertThat(d.served()).isTrue();
    }

    @Test
    void failsAtOnceWhenThePoolIsFull() {
        Harness h = harness(1);
        h.checkout();
        h.vt.advanceMillis(5);
        TestWaiter late = h.checkout();
        assertThat(late.failure).isNotNull();
        assertThat(late.failure.sqlState()).isEqualTo("08P01");
        assertThat(h.vt.queued()).isZero();
    }
}
