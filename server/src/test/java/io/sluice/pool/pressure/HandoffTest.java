package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Phase 4: FIFO direct handoff, dead waiters, jittered deadlines; and the Lease contract. */
class HandoffTest {

    private static Harness fullPool(int size) {
        Settings s = new Settings();
        s.poolSize = size;
        Harness h = new Harness(s, 5 * MS);
        h.warm(size);
        return h;
    }

    @Test
    void handoffsAreDeliveredInStrictFifoOrder() {
        Harness h = fullPool(2);
        TestWaiter a = h.checkout();
        TestWaiter b = h.checkout();
        List<TestWaiter> queued = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queued.add(h.checkoutHolding(1 * MS));
            h.vt.advance(10_000); // distinct arrival instants
        }
        h.grants.clear();
        a.lease.release();
        b.lease.release();
        h.vt.runAll(10 * S);

        assertThat(h.grants).containsExactlyElementsOf(queued);
        assertThat(h.connector.attempts).isEqualTo(2); // only the warm-up connects
        assertThat(h.pool.scaling().anticipationNotify()).isEqualTo(10);
    }

    @Test
    void aFullPoolWaitsForReturnsWithoutDeadlineOrBudgetTimers() {
        Harness h = fullPool(2);
        h.checkout();
        h.checkout();
        h.vt.runUntilIdle();
        int before = h.vt.queued();
        int ranBefore = h.vt.ran();
        long timeouts = h.pool.scaling().anticipationTimeout();
        long budgets = h.pool.scaling().gateBudgetExhausted();
        for (int i = 0; i < 50; i++) {
            h.checkout();
        }
        h.vt.runUntilIdle();
        // only the first re-polls the idle queue (scaling_fast_retries times): the others queue
        // behind it, and every return goes to the oldest
        assertThat(h.vt.ran() - ranBefore).isLessThanOrEqualTo(new Settings().fastRetries + 1);
        // no timer per waiter: the pool's query_wait_timeout timer, armed at warm-up, covers them all
        assertThat(h.vt.queued()).isEqualTo(before);
        h.vt.advanceMillis(1000);
        assertThat(h.pool.scaling().anticipationTimeout()).isEqualTo(timeouts);
        assertThat(h.pool.scaling().gateBudgetExhausted()).isEqualTo(budgets);
        assertThat(h.pool.snapshot().clWaiting()).isEqualTo(50);
        assertThat(h.connector.attempts).isEqualTo(2);
    }

    @Test
    void aServerClosingUnderAFullPoolIsReplacedForTheOldestWaiter() {
        Harness h = fullPool(2);
        TestWaiter holder = h.checkout();
        h.checkout();
        h.vt.runUntilIdle();
        List<TestWaiter> queued = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            queued.add(h.checkout());
            h.vt.advance(10_000);
        }
        h.vt.advanceMillis(1000);
        assertThat(queued).noneMatch(TestWaiter::served);
        holder.lease.discard("server conn crashed?");
        h.vt.runAll(S);
        assertThat(h.connector.attempts).isEqualTo(3);
        assertThat(queued.get(0).served()).isTrue();
        assertThat(queued.subList(1, 5)).noneMatch(TestWaiter::served);
    }

    @Test
    void aReturnServesTheOldestWaiterBeforeTheConnectItStartedAndThatConnectServesTheNext() {
        Settings s = new Settings();
        s.poolSize = 10;
        Harness h = new Harness(s, -1);             // connects complete when the test says
        TestWaiter a = h.checkout();
        h.vt.runUntilIdle();
        var first = h.connector.completeNext();
        h.vt.runUntilIdle();
        assertThat(a.served()).isTrue();

        TestWaiter b = h.checkout();                // a cold pool: b starts a connect
        h.vt.runUntilIdle();
        assertThat(h.connector.waitingConnects()).isEqualTo(1);
        a.lease.release();                          // a return before b's connect answers
        h.vt.runUntilIdle();
        assertThat(b.served()).isTrue();            // PgBouncer's order: the oldest waiter, any server
        assertThat(b.lease.server()).isSameAs(first);

        TestWaiter c = h.checkoutHolding(1 * MS);   // still cold (below 20 % of 10): c connects too
        h.vt.runUntilIdle();
        assertThat(h.connector.waitingConnects()).isEqualTo(2);
        var second = h.connector.completeNext();    // b's connect answers: c is next in line
        h.vt.runUntilIdle();
        assertThat(c.served()).isTrue();
        assertThat(h.grants).containsExactly(a, b, c);
        assertThat(h.connector.attempts).isEqualTo(3);
        h.connector.completeNext();                 // c's connect: nobody waits, it parks
        h.vt.runAll(1 * S);
        assertThat(h.pool.snapshot().svIdle()).isEqualTo(2); // second (c's, returned) and the third
        assertThat(second).isNotSameAs(first);
    }

    @Test
    void aSpinningCheckoutKeepsItsPlaceAgainstALaterArrival() {
        Harness h = fullPool(2);
        TestWaiter a = h.checkout();
        TestWaiter b = h.checkout();
        h.grants.clear();
        TestWaiter spinner = h.checkout(); // its re-polls are queued on the engine, none run yet
        a.lease.release();                 // a return while it spins
        TestWaiter later = h.checkout();   // e.g. a's client, back with its next query
        h.vt.runUntilIdle();

        assertThat(spinner.served()).isTrue();
        assertThat(later.served()).isFalse();
        b.lease.release();
        h.vt.runUntilIdle();
        assertThat(later.served()).isTrue();
        assertThat(h.grants).containsExactly(spinner, later);
    }

    @Test
    void aWaiterWhoseClientLeftIsSkipped() {
        Harness h = fullPool(1);
        TestWaiter holder = h.checkout();
        TestWaiter first = h.checkout();
        TestWaiter gone = h.checkout();
        TestWaiter third = h.checkout();
        h.vt.advanceMillis(1);
        gone.leave();
        assertThat(h.pool.snapshot().clWaiting()).isEqualTo(2);

        holder.lease.release();
        h.vt.runUntilIdle();
        assertThat(first.served()).isTrue();
        first.lease.release();
        h.vt.runUntilIdle();

        assertThat(third.served()).isTrue();
        assertThat(gone.outcomes).isZero();
    }

    @Test
    void jitteredDeadlinesDoNotExpireTogether() {
        // room for one more server: a full pool waits for returns without a deadline
        Settings s = new Settings();
        s.poolSize = 3;
        Harness h = new Harness(s, 5 * MS);
        h.warm(2);
        for (int i = 0; i < 20; i++) {
            h.pool.recordTransaction(400 * Harness.MS); // slow transactions: the 300-500 ms hard cap decides
        }
        h.checkout();
        h.checkout();
        for (int i = 0; i < 50; i++) {
            h.checkout();
        }
        h.vt.runUntilIdle();
        TreeSet<Long> expiryMillis = new TreeSet<>();
        long base = h.pool.scaling().anticipationTimeout();
        long seen = 0;
        for (int ms = 0; ms < 1000; ms++) {
            h.vt.advanceMillis(1);
            long n = h.pool.scaling().anticipationTimeout() - base;
            if (n > seen) {
                expiryMillis.add((long) ms);
                seen = n;
            }
        }
        assertThat(seen).isEqualTo(50);
        assertThat(expiryMillis.size()).isGreaterThan(25);
        assertThat(expiryMillis.first()).isGreaterThanOrEqualTo(250);
        assertThat(expiryMillis.last()).isLessThanOrEqualTo(500);
        assertThat(expiryMillis.last() - expiryMillis.first()).isGreaterThan(100);
    }

    @Test
    void waitingIsBoundedByQueryWaitTimeout() {
        Settings s = new Settings();
        s.poolSize = 1;
        s.queryWaitTimeout = 2 * S;
        Harness h = new Harness(s, 5 * MS);
        h.warm(1);
        h.checkout();
        TestWaiter late = h.checkout();
        h.vt.advanceMillis(1999);
        assertThat(late.outcomes).isZero();
        assertThat(h.pool.snapshot().maxwait()).isEqualTo(1);
        h.vt.advanceMillis(1);
        assertThat(late.failure).isNotNull();
        assertThat(late.failure.sqlState()).isEqualTo("08P01");
        assertThat(late.failure.message()).isEqualTo("query_wait_timeout");
        assertThat(h.pool.snapshot().clWaiting()).isZero();
    }

    @Test
    void leaseIsReleasedExactlyOnce() {
        Harness h = fullPool(1);
        TestWaiter w = h.checkout();
        w.lease.release();
        assertThatThrownBy(() -> w.lease.release()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> w.lease.discard("x")).isInstanceOf(IllegalStateException.class);
        assertThat(h.pool.snapshot().svIdle()).isEqualTo(1);
    }

    @Test
    void discardClosesAndShrinks() {
        Harness h = fullPool(1);
        TestWaiter w = h.checkout();
        w.lease.discard("client gone mid-query");
        assertThat(h.connector.handles.get(0).closeReason()).isEqualTo("client gone mid-query");
        assertThat(h.pool.size()).isZero();
    }
}
