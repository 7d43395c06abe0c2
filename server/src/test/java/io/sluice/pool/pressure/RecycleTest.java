package io.sluice.pool.pressure;

import static io.sluice.pool.pressure.Harness.MS;
import static io.sluice.pool.pressure.Harness.S;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.pool.ServerHandle.Probe;
import io.sluice.pool.fakes.FakeServerHandle;
import io.sluice.pool.fakes.Settings;
import io.sluice.pool.fakes.TestWaiter;
import org.junit.jupiter.api.Test;

/** Phase 1 recycle check and RECONNECT epochs (server_login_retry: {@link LoginRetryTest}). */
class RecycleTest {

    private static Harness harness(int poolSize) {
        Settings s = new Settings();
        s.poolSize = poolSize;
        s.serverCheckDelay = 30 * S;
        return new Harness(s, 5 * MS);
    }

    @Test
    void inTransactionConnectionGetsARollbackProbeFirst() {
        Harness h = harness(2);
        h.warm(1);
        FakeServerHandle srv = h.connector.handles.get(0);
        srv.inTransaction(true);
        srv.holdProbes(true);
        TestWaiter w = h.checkout();
        assertThat(srv.probes).containsExactly(Probe.ROLLBACK);
        assertThat(h.pool.snapshot().svTested()).isEqualTo(1);
        assertThat(h.pool.snapshot().servers().get(0).state()).isEqualTo("tested");
        assertThat(w.outcomes).isZero();
        srv.inTransaction(false);
        srv.answerProbes(true);
        assertThat(w.served()).isTrue();
        assertThat(w.lease.server()).isSameAs(srv);
        assertThat(h.pool.snapshot().svActive()).isEqualTo(1);
    }

    @Test
    void livenessProbeAfterCheckDelayAndAFailedProbeClosesAndMovesOn() {
        Harness h = harness(2);
        h.warm(1);
        FakeServerHandle srv = h.connector.handles.get(0);
        h.vt.advance(31 * S);
        srv.probeResult(false);
        TestWaiter w = h.checkout();
        assertThat(srv.probes).containsExactly(Probe.CHECK);
        assertThat(srv.isClosed()).isTrue();
        h.vt.runAll(S);
        assertThat(w.served()).isTrue();
        assertThat(w.lease.server()).isNotSameAs(srv);
    }

    @Test
    void aHandedOffServerThatFailsItsProbeClosesAndTheWaiterGoesOnAtTheGate() {
        Harness h = harness(1);
        h.warm(1);
        TestWaiter first = h.checkout();
        TestWaiter second = h.checkout();
        assertThat(second.outcomes).as("a pool of one, in use: the second waits").isZero();
        FakeServerHandle srv = (FakeServerHandle) first.lease.server();
        srv.inTransaction(true);
        srv.probeResult(false);
        first.lease.release();
        assertThat(srv.probes).as("handed to the waiter, it gets its ROLLBACK first").containsExactly(Probe.ROLLBACK);
        assertThat(srv.isClosed()).isTrue();
        h.vt.runAll(S);
        assertThat(second.served()).as("it went on at the gate and was served by a new connection").isTrue();
        assertThat(second.lease.server()).isNotSameAs(srv);
    }

    @Test
    void noProbeWithinCheckDelay() {
        Harness h = harness(2);
        h.warm(1);
        h.vt.advance(29 * S);
        TestWaiter w = h.checkout();
        assertThat(w.served()).isTrue();
        assertThat(h.connector.handles.get(0).probes).isEmpty();
    }

    @Test
    void reconnectClosesIdleNowAndLeasedAtRelease() {
        Harness h = harness(3);
        FakeServerHandle busy = leasedThroughReconnect(h, "pause mode", false);
        assertThat(busy.closeReason()).as("the reconnect's reason, as PgBouncer logs it").isEqualTo("pause mode");
        TestWaiter next = h.checkout();
        h.vt.runAll(S);
        assertThat(next.served()).isTrue();
        assertThat(h.connector.live).isEqualTo(1);
    }

    @Test
    void aServerMarkedByReconnectClosesAtReleaseAsCloseNeeded() {
        FakeServerHandle busy = leasedThroughReconnect(harness(3), "database configuration changed", true);
        assertThat(busy.closeReason()).as("PgBouncer's release_server words").isEqualTo("close_needed");
    }

    /** Two warm servers, one leased across a reconnect: the idle one closes at once, the leased one at release. */
    private static FakeServerHandle leasedThroughReconnect(Harness h, String reason, boolean closeNeededAtRelease) {
        h.warm(2);
        TestWaiter leased = h.checkout();
        FakeServerHandle busy = (FakeServerHandle) leased.lease.server();
        h.pool.reconnect(reason, closeNeededAtRelease);
        assertThat(h.pool.snapshot().svIdle()).isZero();
        assertThat(busy.isClosed()).isFalse();
        leased.lease.release();
        assertThat(busy.isClosed()).isTrue();
        return busy;
    }

    @Test
    void deadConnectionInIdleIsSkipped() {
        Harness h = harness(2);
        h.warm(2);
        // warm() returned handle 1 last: server_round_robin = 0 hands it out first.
        h.connector.handles.get(1).die();
        TestWaiter w = h.checkout();
        assertThat(w.lease.server()).isSameAs(h.connector.handles.get(0));
        assertThat(h.pool.size()).isEqualTo(1);
    }
}
