package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.ConnectionLimit;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.fakes.FakeConnector;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import io.sluice.pool.fakes.VirtualScheduler;
import io.sluice.util.Randomness;
import io.sluice.util.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** query_wait_timeout on one timer per pool: each waiter still fails at its own deadline. */
class WaitDeadlinesTest {
    private final VirtualScheduler vt = new VirtualScheduler();
    /** Delays of the timers the pool scheduled that are as long as a wait deadline (>= 1 s). */
    private final List<Long> longTimers = new ArrayList<>();
    private final List<TestWaiter> grants = new ArrayList<>();
    private final Settings settings = new Settings();
    private Pool pool;
    private int numbers;

    private void start(int poolSize, long queryWaitTimeout) {
        settings.poolSize = poolSize;
        settings.queryWaitTimeout = queryWaitTimeout;
        Scheduler counting = new Scheduler() {
            @Override
            public Cancellable schedule(Runnable task, long delayNanos) {
                if (delayNanos >= S) {
                    longTimers.add(delayNanos);
                }
                return vt.schedule(task, delayNanos);
            }

            @Override
            public void execute(Runnable task) {
                vt.execute(task);
            }
        };
        pool = new Pool(new PoolKey("db", "user"), settings.build(), new FakeConnector(vt, 5 * MS), new PoolEvents() { },
                ConnectionLimit.unlimited("db"), ConnectionLimit.unlimited("user"), vt, counting, Randomness.seeded(7));
    }

    private TestWaiter checkout(long holdNanos) {
        TestWaiter w = new TestWaiter(++numbers, vt, grants);
        if (holdNanos >= 0) {
            w.holdFor(holdNanos, l -> { });
        }
        pool.checkout(w);
        return w;
    }

    @Test
    void eachWaiterFailsAtItsOwnDeadline() {
        start(1, 2 * S);
        TestWaiter holder = checkout(-1);             // keeps the only server
        vt.runAll(S);
        assertThat(holder.served()).isTrue();
        List<TestWaiter> queued = new ArrayList<>();
        List<Long> arrived = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            arrived.add(vt.nanoTime());
            queued.add(checkout(-1));
            vt.advanceMillis(100);
        }
        for (int i = 0; i < 5; i++) {
            long deadline = arrived.get(i) + 2 * S;
            vt.advance(deadline - 1 - vt.nanoTime());
            assertThat(queued.get(i).outcomes).as("waiter %d before its deadline", i).isZero();
            vt.advance(1);
            assertThat(queued.get(i).failure).as("waiter %d at its deadline", i).isNotNull();
            assertThat(queued.get(i).failure.message()).isEqualTo("query_wait_timeout");
        }
        assertThat(pool.snapshot().clWaiting()).isZero();
        // the first arrival armed the pool's timer; later arrivals scheduled nothing long (the
        // wake-ups between deadlines 100 ms apart are short)
        assertThat(longTimers).hasSize(1);
    }

    @Test
    void waitersServedInTimeScheduleOneTimerBetweenThem() {
        start(1, 2 * S);
        TestWaiter holder = checkout(1 * MS);
        for (int i = 0; i < 50; i++) {
            checkout(1 * MS);
            vt.advance(10_000);
        }
        vt.runAll(10 * S);
        assertThat(holder.served()).isTrue();
        assertThat(grants).hasSize(51);
        assertThat(grants).allMatch(TestWaiter::served);
        // a timer per checkout would have scheduled 50
        assertThat(longTimers).hasSize(1);
    }

    @Test
    void aShorterTimeoutAfterReloadIsNotHeldUpByTheLongerOne() {
        start(1, 10 * S);
        checkout(-1);
        vt.runAll(S);
        TestWaiter early = checkout(-1);              // deadline in 10 s
        vt.advanceMillis(100);
        settings.queryWaitTimeout = 2 * S;
        pool.updateSettings(settings.build());
        TestWaiter late = checkout(-1);               // deadline in 2 s, before early's
        vt.advanceMillis(1999);
        assertThat(late.outcomes).isZero();
        vt.advanceMillis(1);
        assertThat(late.failure).isNotNull();
        assertThat(early.outcomes).isZero();
        vt.advanceMillis(7900 - 1);
        assertThat(early.outcomes).isZero();
        vt.advanceMillis(1);
        assertThat(early.failure).isNotNull();
    }
}
