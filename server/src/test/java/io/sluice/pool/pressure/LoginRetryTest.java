package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import org.junit.jupiter.api.Test;

/**
 * Failed connects as PgBouncer handles them, on virtual time: a refused connect, a connect
 * timeout or 57P03 fails nobody; waiting clients stay queued, the next connect starts
 * server_login_retry after the failed one <em>started</em>, and they fail only on
 * query_wait_timeout. A request that finds the pool empty while logins fail is refused at once
 * (check_fast_fail); a login PostgreSQL itself refuses fails every waiter of an empty pool.
 */
class LoginRetryTest {
    private static final String REFUSED = "connect failed";

    private static Harness manual(int poolSize, long queryWaitTimeout) {
        Settings s = new Settings();
        s.poolSize = poolSize;
        s.serverLoginRetry = 15 * S;
        s.queryWaitTimeout = queryWaitTimeout;
        return new Harness(s, -1);
    }

    @Test
    void aRefusedConnectKeepsItsClientWaitingAndRetriesServerLoginRetryAfterTheConnectStarted() {
        Harness h = manual(4, 120 * S);
        long start = h.vt.nanoTime();
        TestWaiter w = h.checkout();
        h.vt.runUntilIdle();
        assertThat(h.connector.attempts).isEqualTo(1);

        h.vt.advance(2 * S);
        h.connector.failNext("08006", REFUSED);
        h.vt.runUntilIdle();
        assertThat(w.outcomes).as("a refused connect fails nobody").isZero();
        assertThat(h.pool.waitingClients()).isEqualTo(1);

        h.vt.advance(13 * S - MS);
        assertThat(h.connector.attempts).as("still inside server_login_retry").isEqualTo(1);
        h.vt.advance(MS);
        assertThat(h.connector.attempts).as("retried 15 s after the first connect started, not after it failed")
                .isEqualTo(2);
        h.connector.completeNext();
        h.vt.runUntilIdle();
        assertThat(w.served()).isTrue();
        assertThat(h.vt.nanoTime() - start).isEqualTo(15 * S);
    }

    @Test
    void aConnectThatTimedOutAfterServerLoginRetryIsRetriedAtOnce() {
        Harness h = manual(4, 120 * S);
        TestWaiter w = h.checkout();
        h.vt.runUntilIdle();
        h.vt.advance(15 * S);
        h.connector.failNext("08006", "connect timeout");
        h.vt.runUntilIdle();
        assertThat(h.connector.attempts).isEqualTo(2);
        assertThat(w.outcomes).isZero();
    }

    @Test
    void startingUpAnswersKeepEveryWaiterQueued() {
        Harness h = manual(1, 120 * S);
        TestWaiter a = h.checkout();
        TestWaiter b = h.checkout();
        TestWaiter c = h.checkout();
        h.vt.runUntilIdle();
        h.connector.rejectNext("57P03", "the database system is starting up");
        h.vt.runUntilIdle();
        assertThat(a.outcomes + b.outcomes + c.outcomes).as("57P03 is a passing state").isZero();

        h.vt.advance(15 * S);
        h.connector.completeNext();
        h.vt.runUntilIdle();
        assertThat(a.served()).isTrue();
        a.lease.release();
        h.vt.runUntilIdle();
        assertThat(b.served()).as("FIFO after the restart").isTrue();
        assertThat(c.served()).isFalse();
    }

    @Test
    void waitingClientsFailOnlyAtQueryWaitTimeout() {
        Harness h = new Harness(settings(30 * S), 5 * MS);
        h.connector.failWith("08006", REFUSED);
        TestWaiter w = h.checkout();
        h.vt.advance(30 * S - MS);
        assertThat(w.outcomes).isZero();
        assertThat(h.connector.attempts).as("one connect per server_login_retry").isEqualTo(2);
        h.vt.advance(MS);
        assertThat(w.failure).isNotNull();
        assertThat(w.failure.kind()).isEqualTo(CheckoutFailure.Kind.WAIT_TIMEOUT);
        assertThat(w.failure.message()).isEqualTo("query_wait_timeout");
    }

    private static Settings settings(long queryWaitTimeout) {
        Settings s = new Settings();
        s.poolSize = 4;
        s.serverLoginRetry = 15 * S;
        s.queryWaitTimeout = queryWaitTimeout;
        return s;
    }

    @Test
    void aRequestThatFindsThePoolEmptyWhileLoginsFailIsRefusedAtOnceAndStartsAConnectLater() {
        Harness h = new Harness(settings(120 * S), 5 * MS);
        h.connector.failWith("08006", REFUSED);
        TestWaiter queued = h.checkout();
        h.vt.advance(S);
        assertThat(queued.outcomes).isZero();

        TestWaiter refused = h.checkout();
        assertThat(refused.failure).isNotNull();
        assertThat(refused.failure.sqlState()).isEqualTo("08P01");
        assertThat(refused.failure.message())
                .isEqualTo("server login has been failing, cached error: " + REFUSED + " (server_login_retry)");
        assertThat(h.connector.attempts).as("inside server_login_retry: no connect").isEqualTo(1);

        queued.leave();
        h.connector.failWith(null, null);
        h.vt.advance(20 * S);
        assertThat(h.connector.attempts).as("nobody waits: nobody connects").isEqualTo(1);
        TestWaiter next = h.checkout();
        assertThat(next.failure).as("PgBouncer still refuses, but connects for the next one").isNotNull();
        h.vt.runAll(S);
        assertThat(h.connector.attempts).isEqualTo(2);
        assertThat(h.pool.snapshot().svIdle()).isEqualTo(1);
        TestWaiter served = h.checkout();
        assertThat(served.served()).isTrue();
    }

    @Test
    void aLoginWaitingForTheGreetingQueuesEvenWhileLoginsFail() {
        Harness h = new Harness(settings(120 * S), 5 * MS);
        h.connector.failWith("08006", REFUSED);
        h.checkout();
        h.vt.advance(S);
        TestWaiter login = h.waiter().waitingForWelcome();
        h.pool.checkout(login);
        assertThat(login.outcomes).isZero();
        h.connector.failWith(null, null);
        h.vt.advance(15 * S);
        assertThat(login.served()).isTrue();
    }

    @Test
    void aLoginThePostgresRefusesFailsEveryWaiterOfAnEmptyPoolWithItsError() {
        Harness h = manual(1, 120 * S);
        TestWaiter a = h.checkout();
        TestWaiter b = h.checkout();
        h.vt.runUntilIdle();
        h.connector.rejectNext("28P01", "password authentication failed for user \"user\"");
        h.vt.runUntilIdle();
        for (TestWaiter w : new TestWaiter[] {a, b}) {
            assertThat(w.failure).isNotNull();
            assertThat(w.failure.kind()).isEqualTo(CheckoutFailure.Kind.CONNECT_FAILED);
            assertThat(w.failure.sqlState()).isEqualTo("28P01");
        }
        assertThat(h.pool.waitingClients()).isZero();
    }

    @Test
    void aRefusedLoginLeavesWaitersQueuedWhileThePoolStillHasAServer() {
        Harness h = manual(2, 120 * S);
        TestWaiter holder = h.checkout();
        h.vt.runUntilIdle();
        h.connector.completeNext();
        h.vt.runUntilIdle();
        assertThat(holder.served()).isTrue();

        TestWaiter waiting = h.checkout();
        h.vt.runAll(S);
        assertThat(h.connector.waitingConnects()).isEqualTo(1);
        h.connector.rejectNext("53300", "sorry, too many clients already");
        h.vt.runUntilIdle();
        assertThat(waiting.outcomes).as("a server of the pool can still serve it").isZero();
        holder.lease.release();
        h.vt.runUntilIdle();
        assertThat(waiting.served()).isTrue();
    }
}
