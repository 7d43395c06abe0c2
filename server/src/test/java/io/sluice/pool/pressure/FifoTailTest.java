package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.Waiter;
import io.sluice.pool.fakes.Settings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * 500 clients in a closed loop on a pool of 40 (the "fifo-500" workload) on virtual time:
 * once the pool is warm, FIFO handoff gives every client about the same wait (p99/p50 near 1,
 * where LIFO or broadcast wake-ups give 10-25x tails).
 */
class FifoTailTest {
    static final int CLIENTS = 500;
    static final long HOLD = MS / 2;
    static final long WARM_UP = 300 * MS;

    @Test
    void fiveHundredClientsOnFortyKeepTheTailNearTheMedian() {
        Settings s = new Settings();
        s.poolSize = 40;
        Harness h = new Harness(s, 5 * MS);
        List<Long> waits = new ArrayList<>();
        long start = h.vt.nanoTime();
        long end = start + 2 * S;
        for (int i = 0; i < CLIENTS; i++) {
            new LoopingClient(h, waits, start + WARM_UP, end).next();
        }
        h.vt.runAll(30 * S);

        List<Long> sorted = waits.stream().sorted().toList();
        long p50 = sorted.get(sorted.size() / 2);
        long p99 = sorted.get(sorted.size() * 99 / 100);
        long max = sorted.get(sorted.size() - 1);
        System.out.printf("fifo-500 virtual: n=%d p50=%d us p99=%d us max=%d us live=%d%n", sorted.size(), p50 / 1000, p99 / 1000, max / 1000, h.connector.maxLive);
        assertThat(sorted.size()).isGreaterThan(10_000);
        assertThat(h.connector.maxLive).isLessThanOrEqualTo(40);
        assertThat((double) p99 / p50).as("p99/p50 of checkout wait").isLessThan(1.5);
        assertThat(max).as("longest wait vs median").isLessThan(3 * p50);
    }

    /** A client that checks out, holds the connection for HOLD, releases and comes back at once. */
    private static final class LoopingClient implements Waiter {
        private final Harness h;
        private final List<Long> waits;
        private final long measureFrom;
        private final long end;
        private long askedAt;

        LoopingClient(Harness h, List<Long> waits, long measureFrom, long end) {
            this.h = h;
            this.waits = waits;
            this.measureFrom = measureFrom;
            this.end = end;
        }

        void next() {
            askedAt = h.vt.nanoTime();
            if (askedAt < end) {
                h.pool.checkout(this);
            }
        }

        @Override
        public boolean isAlive() {
            return true;
        }

        @Override
        public void granted(Lease lease) {
            if (askedAt > measureFrom) {  // steady state only: the cold pool's ramp is another test's topic
                waits.add(h.vt.nanoTime() - askedAt);
            }
            h.vt.schedule(() -> {
                h.pool.recordTransaction(HOLD);
                lease.release();
                next();
            }, HOLD);
        }

        @Override
        public void failed(CheckoutFailure failure) {
            throw new AssertionError("checkout failed: " + failure);
        }
    }
}
