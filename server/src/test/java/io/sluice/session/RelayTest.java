package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.backend.ServerConnection;
import io.sluice.config.PoolMode;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.session.SessionHarness.ALLOC;
import static io.sluice.session.SessionHarness.drain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The relay on Netty's EmbeddedChannel: release per pool mode, departures, both backpressures. */
class RelayTest {
    private static ByteBuf copyData(int size) {
        ByteBuf b = Unpooled.buffer(5 + size);
        b.writeByte('d').writeInt(4 + size).writeZero(size);
        return b;
    }

    @Test
    void loginGreetsAndParksTheClientInItsPoolsIdleList() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        assertEquals(ClientSession.State.IDLE, h.session.state());
        assertEquals(1, h.clients.active(h.session.poolKey()));
        assertEquals(0, h.clients.waiting(h.session.poolKey()));
        assertEquals(0, h.checkouts, "no server before the first query");
    }

    @Test
    void transactionModeReleasesAtIdleReadyForQueryOnly() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        h.clientSends(Encoders.query(ALLOC, "begin"));
        assertEquals(ClientSession.State.ACTIVE, h.session.state());
        assertEquals("Q", drain(h.serverChannel));
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        assertEquals("CZ", drain(h.client));
        assertEquals(List.of(), h.leaseEnds, "inside a transaction the server stays linked");
        assertEquals(List.of(), h.transactionsDone);
        h.clientSends(Encoders.query(ALLOC, "commit"));
        h.serverAnswers("COMMIT", TransactionStatus.IDLE);
        assertEquals(List.of("release"), h.leaseEnds);
        assertEquals(1, h.transactionsDone.size(), "the transaction's time goes to its server's pool");
        assertEquals(ClientSession.State.IDLE, h.session.state());
        assertNull(h.session.server());
        assertEquals(1, h.clients.active(h.session.poolKey()));
    }

    @Test
    void sessionModeKeepsTheServerAcrossTransactions() {
        var h = new SessionHarness(PoolMode.SESSION);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.serverAnswers(TransactionStatus.IDLE);
        assertEquals(List.of(), h.leaseEnds);
        assertEquals(h.server, h.session.server());
    }

    @Test
    void statementModeRefusesATransactionBlock() {
        var h = new SessionHarness(PoolMode.STATEMENT);
        h.clientSends(Encoders.query(ALLOC, "begin"));
        drain(h.client);
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertTrue(h.leaseEnds.get(0).startsWith("discard"), h.leaseEnds.toString());
    }

    @Test
    void clientLeavingMidTransactionClosesItsServer() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        h.clientSends(Encoders.query(ALLOC, "begin"));
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        h.client.close();
        assertEquals(List.of("discard: client disconnect while server was not ready"), h.leaseEnds);
        assertFalse(h.server.isOpen());
        assertEquals(0, h.clients.active(h.session.poolKey()));
    }

    @Test
    void clientLeavingWithAQueryInFlightClosesItsServer() {
        var h = new SessionHarness(PoolMode.SESSION);
        h.clientSends(Encoders.query(ALLOC, "select pg_sleep(10)"));
        h.client.close();
        assertEquals(List.of("discard: client disconnect while server was not ready"), h.leaseEnds);
    }

    @Test
    void idleSessionServerIsResetAndReturnedWhenItsClientLeaves() {
        var h = new SessionHarness(PoolMode.SESSION);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.serverAnswers(TransactionStatus.IDLE);
        drain(h.serverChannel);
        h.client.close();
        assertEquals(List.of(), h.leaseEnds, "waits for the reset query");
        assertEquals("Q", drain(h.serverChannel), "server_reset_query sent");
        h.serverAnswers(TransactionStatus.IDLE);
        assertEquals(List.of("release"), h.leaseEnds);
        assertEquals(ServerConnection.State.IDLE, h.server.state());
    }

    @Test
    void aLargeCopyDataGoesThroughInPiecesAndStillReleasesAtItsEnd() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        h.clientSends(Encoders.query(ALLOC, "copy t from stdin"));
        ByteBuf big = copyData(1 << 20);
        int total = big.readableBytes();
        while (big.isReadable()) {
            h.clientSends(big.readRetainedSlice(Math.min(8192, big.readableBytes())));
        }
        big.release();
        h.clientSends(Unpooled.buffer().writeByte('c').writeInt(4));
        int relayed = 0;
        ByteBuf b;
        while ((b = h.serverChannel.readOutbound()) != null) {
            relayed += b.readableBytes();
            b.release();
        }
        assertEquals(Encoders.query(ALLOC, "copy t from stdin").readableBytes() + total + 5, relayed);
        h.serverChannel.writeInbound(SessionHarness.concat(Encoders.commandComplete(ALLOC, "COPY 1"),
                Encoders.readyForQuery(ALLOC, TransactionStatus.IDLE)));
        assertEquals(List.of("release"), h.leaseEnds, "the pieces of one CopyData are not a new unsynced message");
    }

    @Test
    void aFullServerStopsReadingTheClientUntilItDrains() {
        var h = new SessionHarness(PoolMode.SESSION);
        h.clientSends(Encoders.query(ALLOC, "copy t from stdin"));
        assertTrue(h.client.config().isAutoRead());
        h.serverChannel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        h.serverChannel.runPendingTasks();
        h.clientSends(copyData(1000));
        assertFalse(h.client.config().isAutoRead(), "client reading stops while the server is not writable");
        h.serverChannel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        h.serverChannel.runPendingTasks();
        assertTrue(h.client.config().isAutoRead(), "and resumes once it is");
    }

    @Test
    void aFlushThatDrainsTheServerAtOnceKeepsTheClientReading() {
        var h = new SessionHarness(PoolMode.SESSION);
        h.clientSends(Encoders.query(ALLOC, "copy t from stdin"));
        h.serverChannel.config().setWriteBufferWaterMark(new io.netty.channel.WriteBufferWaterMark(1, 2));
        h.clientSends(copyData(100));
        assertTrue(h.client.config().isAutoRead(), "the flush drained the server; nothing may stay held");
        assertEquals("Qd", drain(h.serverChannel));
    }

    @Test
    void aSlowClientStopsReadingTheServer() {
        var h = new SessionHarness(PoolMode.SESSION);
        h.clientSends(Encoders.query(ALLOC, "select big"));
        assertTrue(h.serverChannel.config().isAutoRead());
        h.client.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        h.client.runPendingTasks();
        assertFalse(h.serverChannel.config().isAutoRead(), "server reading stops while the client is not writable");
        h.client.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        h.client.runPendingTasks();
        assertTrue(h.serverChannel.config().isAutoRead());
    }

    @Test
    void releasingTheServerLiftsTheServerFullHold() {
        var h = new SessionHarness(PoolMode.TRANSACTION);
        h.clientSends(Encoders.query(ALLOC, "copy t from stdin"));
        h.serverChannel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        h.serverChannel.runPendingTasks();
        h.clientSends(copyData(10));
        assertFalse(h.client.config().isAutoRead());
        h.serverChannel.writeInbound(SessionHarness.concat(Encoders.commandComplete(ALLOC, "COPY 1"),
                Encoders.readyForQuery(ALLOC, TransactionStatus.IDLE)));
        assertEquals(List.of("release"), h.leaseEnds);
        assertTrue(h.client.config().isAutoRead(), "the next server is a different story");
    }

    @Test
    void aClientQueueingWhileItWaitsIsPausedAboveTheLimit() {
        // a pool that grants nothing: the session stays WAITING
        var waiting = new SessionHarness(PoolMode.TRANSACTION) {
            @Override
            public void checkout(io.sluice.pool.PoolKey key, io.sluice.pool.Waiter waiter) {
                checkouts++;
            }
        };
        waiting.clientSends(Encoders.query(ALLOC, "select 1"));
        assertEquals(ClientSession.State.WAITING, waiting.session.state());
        assertEquals(1, waiting.clients.waiting(waiting.session.poolKey()));
        assertEquals(0, waiting.clients.active(waiting.session.poolKey()));
        assertTrue(waiting.client.config().isAutoRead());
        waiting.clientSends(copyData((int) Relay.PENDING_LIMIT + 1));
        assertFalse(waiting.client.config().isAutoRead());
        assertEquals(1, waiting.checkouts, "one checkout however much it queues");
    }

    @Test
    void queryTimeoutRunsOnTheInjectedClock() {
        var h = new SessionHarness(PoolMode.TRANSACTION, 1_000_000_000L);
        h.clientSends(Encoders.query(ALLOC, "select pg_sleep(5)"));
        h.time.advanceMillis(999);
        assertEquals(ClientSession.State.ACTIVE, h.session.state());
        h.time.advanceMillis(2);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertTrue(h.leaseEnds.get(0).startsWith("discard"));
    }
}
