package io.sluice.session;

import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.backend.ServerConnection;
import io.sluice.config.PoolMode;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.StartupDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 8, the session's part: a server whose client sent a cancel goes back to the pool
 * only once that cancel is complete, and the cancel's own connection stays open until then.
 */
class CancelHoldTest {
    /** A harness whose cancels complete when the test says so. */
    static class Harness extends SessionHarness {
        final List<Runnable> cancelsInFlight = new ArrayList<>();
        final List<Runnable> heldBack = new ArrayList<>();

        Harness() {
            super(PoolMode.TRANSACTION);
        }

        @Override
        public void cancel(ServerConnection s, Runnable done) {
            cancelsInFlight.add(done);
        }

        @Override
        public void whenDone(ServerConnection s, Runnable then) {
            if (cancelsInFlight.isEmpty()) {
                then.run();
            } else {
                heldBack.add(then);
            }
        }

        @Override
        public boolean cancelling(ServerConnection s) {
            return !cancelsInFlight.isEmpty();
        }

        void completeCancels() {
            List.copyOf(cancelsInFlight).forEach(Runnable::run);
            cancelsInFlight.clear();
            List.copyOf(heldBack).forEach(Runnable::run);
            heldBack.clear();
        }

        EmbeddedChannel sendCancel(int pid, int secret) {
            EmbeddedChannel ch = new EmbeddedChannel(new StartupDecoder(4096, Integer.MAX_VALUE), new ClientSession(this, false));
            ch.writeInbound(Encoders.cancelRequest(ALLOC, pid, secret));
            return ch;
        }
    }

    @Test
    void aCancelledServerIsHeldBackUntilTheCancelIsComplete() {
        Harness h = new Harness();
        h.clientSends(Encoders.query(SessionHarness.ALLOC, "select pg_sleep(1)"));
        assertThat(SessionHarness.drain(h.serverChannel)).isEqualTo("Q");

        EmbeddedChannel cancel = h.sendCancel(h.cancelKey[0], h.cancelKey[1]);
        assertThat(h.cancelsInFlight).as("forwarded").hasSize(1);
        assertThat(cancel.isActive()).as("the sender waits for the cancel to complete").isTrue();

        h.serverAnswers(TransactionStatus.IDLE); // the query ended before the cancel reached it
        assertThat(h.leaseEnds).as("not back in the pool while its cancel is in flight").isEmpty();

        h.completeCancels();
        assertThat(cancel.isActive()).isFalse();
        assertThat(h.leaseEnds).containsExactly("release");
    }

    @Test
    void aWrongKeyOrAnIdleClientIsAnsweredAtOnceAndForwardsNothing() {
        Harness h = new Harness();
        EmbeddedChannel idle = h.sendCancel(h.cancelKey[0], h.cancelKey[1]);
        assertThat(idle.isActive()).isFalse();
        h.clientSends(Encoders.query(SessionHarness.ALLOC, "select pg_sleep(1)"));
        EmbeddedChannel wrong = h.sendCancel(h.cancelKey[0], h.cancelKey[1] ^ 1);
        assertThat(wrong.isActive()).isFalse();
        assertThat(h.cancelsInFlight).isEmpty();
        h.serverAnswers(TransactionStatus.IDLE);
        assertThat(h.leaseEnds).containsExactly("release");
    }
}
