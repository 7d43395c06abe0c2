package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import org.junit.jupiter.api.Test;

/** PgBouncer's reserve_pool_size / reserve_pool_timeout keep their meaning in plain mode. */
class ReservePoolTest {

    @Test
    void aFullPoolGrowsIntoTheReserveOnlyAfterAClientWaitedReservePoolTimeout() {
        Settings s = new Settings();
        s.poolSize = 2;
        s.reservePoolSize = 1;
        s.reservePoolTimeout = 3 * S;
        Harness h = new Harness(s, 5 * MS);
        TestWaiter a = h.checkout();
        TestWaiter b = h.checkout();
        h.vt.runAll(S);
        assertThat(a.served() && b.served()).isTrue();

        TestWaiter c = h.checkout();          // both servers busy: c waits
        h.vt.advance(2 * S);
        assertThat(c.served()).as("no reserve before reserve_pool_timeout").isFalse();
        assertThat(h.connector.attempts).isEqualTo(2);

        h.vt.advance(2 * S);                   // c has now waited 4 s > 3 s
        h.vt.runAll(S);
        assertThat(c.served()).as("served from the reserve").isTrue();
        assertThat(h.reserveFor).as("the event names the client that waited, as PgBouncer's log line").containsExactly(c);
        assertThat(h.connector.attempts).isEqualTo(3);
        assertThat(h.pool.size()).isEqualTo(3);

        a.lease.release();                     // nobody waits: the pool drains back to pool_size
        h.vt.runUntilIdle();
        assertThat(h.pool.size()).isEqualTo(2);
    }

    @Test
    void withoutReserveAFullPoolNeverGrows() {
        Settings s = new Settings();
        s.poolSize = 1;
        Harness h = new Harness(s, 5 * MS);
        h.checkout();
        h.vt.runAll(S);
        TestWaiter waiting = h.checkout();
        h.vt.advance(60 * S);
        assertThat(waiting.served()).isFalse();
        assertThat(h.connector.attempts).isEqualTo(1);
    }
}
