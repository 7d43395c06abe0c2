package io.sluice.session;

import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.backend.PeerCancels;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17, the session's part of peering: a CancelRequest whose key names another peer is
 * forwarded there with one hop less of TTL and its connection held until the peer is done; an
 * exhausted TTL or an unknown peer closes it; a key of this peer is matched locally whatever
 * TTL it arrived with.
 */
class PeerCancelTest {
    static final int OWN = 7;

    /** Peer 7 of a group whose [peers] knows peer 9 only. */
    static final class Harness extends CancelHoldTest.Harness implements PeerCancels {
        final List<int[]> forwarded = new ArrayList<>();
        final List<Runnable> peerDone = new ArrayList<>();

        @Override
        public PeerCancels peerCancels() {
            return this;
        }

        @Override
        public int peerId() {
            return OWN;
        }

        @Override
        public boolean forward(int peerId, int pid, int secret, Runnable done) {
            if (peerId != 9) {
                return false;
            }
            forwarded.add(new int[] {peerId, pid, secret});
            peerDone.add(done);
            return true;
        }
    }

    /** A key as peer {@code peer} would issue it, with {@code ttl} hops left. */
    static int[] keyOf(int peer, int ttl) {
        int pid = 0x12000034 | ((peer & 0xff) << 16) | ((peer >> 8) << 8);
        return new int[] {pid, 0x5678_9ab0 | ttl};
    }

    @Test
    void ownClientsGetKeysNamingThisPeer() {
        Harness h = new Harness();
        assertThat(CancelKeys.peerOf(h.cancelKey[0])).isEqualTo(OWN);
        assertThat(h.cancelKey[1] & CancelKeys.TTL_MASK).isEqualTo(3);
    }

    @Test
    void aKeyOfAnotherPeerIsForwardedWithOneHopLessAndHeldUntilThePeerIsDone() {
        Harness h = new Harness();
        int[] key = keyOf(9, 3);
        EmbeddedChannel cancel = h.sendCancel(key[0], key[1]);
        assertThat(h.forwarded).singleElement().isEqualTo(new int[] {9, key[0], key[1] - 1});
        assertThat(cancel.isActive()).as("open until the peer has closed its connection").isTrue();
        h.peerDone.get(0).run();
        assertThat(cancel.isActive()).isFalse();
        assertThat(h.cancelsInFlight).as("nothing cancelled here").isEmpty();
    }

    @Test
    void anExhaustedTtlOrAnUnknownPeerClosesAtOnce() {
        Harness h = new Harness();
        int[] spent = keyOf(9, 0);
        assertThat(h.sendCancel(spent[0], spent[1]).isActive()).isFalse();
        int[] unknown = keyOf(8, 3);
        assertThat(h.sendCancel(unknown[0], unknown[1]).isActive()).isFalse();
        assertThat(h.forwarded).isEmpty();
    }

    @Test
    void aKeyOfThisPeerIsMatchedWhateverTtlItArrivesWith() {
        Harness h = new Harness();
        h.clientSends(Encoders.query(SessionHarness.ALLOC, "select pg_sleep(1)"));
        // forwarded twice on its way here: TTL 1
        EmbeddedChannel cancel = h.sendCancel(h.cancelKey[0], h.cancelKey[1] - 2);
        assertThat(h.forwarded).isEmpty();
        assertThat(h.cancelsInFlight).as("sent to this client's server").hasSize(1);
        h.completeCancels();
        assertThat(cancel.isActive()).isFalse();
        h.serverAnswers(TransactionStatus.IDLE);
    }
}
