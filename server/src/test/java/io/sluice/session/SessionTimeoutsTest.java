package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.sluice.session.SessionHarness.ALLOC;
import static io.sluice.session.SessionHarness.drain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PgBouncer's client timeouts on virtual time: idle_transaction_timeout counts only while a
 * transaction waits for its client, transaction_timeout spans a whole transaction, query_timeout
 * also ends a wait for a server (a login's wait for its pool's first server too), query_wait_notify
 * sends one NOTICE, and server_fast_close closes
 * an idle session server that became close_needed.
 */
class SessionTimeoutsTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1000 * MS;

    /** Everything the client was sent, as text (message types and their strings). */
    private static String sent(EmbeddedChannel ch) {
        StringBuilder out = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.append(b.toString(StandardCharsets.UTF_8));
            b.release();
        }
        return out.toString();
    }

    private static SessionHarness.Config config() {
        return new SessionHarness.Config();
    }

    @Test
    void idleTransactionTimeoutDoesNotCountWhileAQueryRuns() {
        SessionHarness.Config c = config();
        c.idleTransactionTimeout = S;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.clientSends(Encoders.query(ALLOC, "begin"));
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        h.time.advance(900 * MS);
        h.clientSends(Encoders.query(ALLOC, "select pg_sleep(5)"));
        h.time.advance(5 * S);
        assertEquals(ClientSession.State.ACTIVE, h.session.state(), "a running query is not idle");
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        h.time.advance(S - MS);
        assertEquals(ClientSession.State.ACTIVE, h.session.state(), "counting restarts at the ReadyForQuery");
        drain(h.client);
        h.time.advance(2 * MS);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertTrue(sent(h.client).contains("idle transaction timeout"));
        assertTrue(h.leaseEnds.get(0).startsWith("discard"), "the open transaction goes with its server");
    }

    @Test
    void idleTransactionTimeoutLeavesAClientIdleOutsideATransaction() {
        SessionHarness.Config c = config();
        c.idleTransactionTimeout = S;
        var h = new SessionHarness(PoolMode.SESSION, c);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.serverAnswers(TransactionStatus.IDLE);
        h.time.advance(10 * S);
        assertEquals(ClientSession.State.ACTIVE, h.session.state());
    }

    @Test
    void transactionTimeoutSpansTheWholeTransactionAndEndsWithIt() {
        SessionHarness.Config c = config();
        c.transactionTimeout = 2 * S;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.clientSends(Encoders.query(ALLOC, "begin"));
        h.serverAnswers("BEGIN", TransactionStatus.IN_TRANSACTION);
        h.time.advance(S);
        h.clientSends(Encoders.query(ALLOC, "commit"));
        // the statement router reads command tags: a tag that does not fit the statement pins
        h.serverAnswers("COMMIT", TransactionStatus.IDLE);
        h.time.advance(5 * S);
        assertEquals(ClientSession.State.IDLE, h.session.state(), "a finished transaction leaves no timer behind");

        h.clientSends(Encoders.query(ALLOC, "begin"));
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        h.time.advance(S);
        h.clientSends(Encoders.query(ALLOC, "select pg_sleep(10)"));
        h.time.advance(S - MS);
        assertEquals(ClientSession.State.ACTIVE, h.session.state());
        drain(h.client);
        h.time.advance(MS);
        assertEquals(ClientSession.State.CLOSED, h.session.state(), "2 s after the transaction's first message");
        assertTrue(sent(h.client).contains("transaction timeout"));
        assertEquals(List.of("release"), h.leaseEnds.subList(0, 1));
        assertTrue(h.leaseEnds.get(1).startsWith("discard"));
    }

    @Test
    void queryTimeoutEndsATransactionLeftIdleBeforeALongerIdleTransactionTimeout() {
        SessionHarness.Config c = config();
        c.queryTimeout = 2 * S;
        c.idleTransactionTimeout = 4 * S;
        var h = new SessionHarness(PoolMode.SESSION, c);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.serverAnswers(TransactionStatus.IDLE);
        h.time.advance(10 * S);
        assertEquals(ClientSession.State.ACTIVE, h.session.state(), "a ready session server has no query timer");
        h.clientSends(Encoders.query(ALLOC, "begin"));
        h.time.advance(S);
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        h.time.advance(S - MS);
        assertEquals(ClientSession.State.ACTIVE, h.session.state(), "2 s from the client's message, not the answer");
        drain(h.client);
        h.time.advance(MS);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        String sent = sent(h.client);
        assertTrue(sent.contains("query timeout"), sent);
        assertFalse(sent.contains("idle transaction timeout"), sent);
    }

    @Test
    void queryTimeoutCountsFromTheClientsLatestMessage() {
        SessionHarness.Config c = config();
        c.queryTimeout = S;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.clientSends(Encoders.query(ALLOC, "select pg_sleep(5)"));
        h.time.advance(900 * MS);
        h.clientSends(Encoders.query(ALLOC, "select 2"));
        h.time.advance(900 * MS);
        assertEquals(ClientSession.State.ACTIVE, h.session.state(), "the second message started the count again");
        drain(h.client);
        h.time.advance(100 * MS);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertTrue(sent(h.client).contains("query timeout"));
    }

    @Test
    void queryTimeoutAlsoEndsAWaitForAServer() {
        SessionHarness.Config c = config();
        c.queryTimeout = S;
        c.holdCheckouts = true;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        assertEquals(ClientSession.State.WAITING, h.session.state());
        drain(h.client);
        h.time.advance(S);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertTrue(sent(h.client).contains("query_timeout"));
    }

    @Test
    void queryTimeoutAlsoEndsALoginWaitingForItsPoolsFirstServer() {
        SessionHarness.Config c = config();
        c.queryTimeout = 3 * S;
        c.holdWelcome = true;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        assertEquals(ClientSession.State.LOGIN, h.session.state(), "no greeting without the pool's parameters");
        h.time.advance(3 * S - MS);
        assertEquals(ClientSession.State.LOGIN, h.session.state());
        h.time.advance(MS);
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertTrue(sent(h.client).contains("query_timeout"), "PgBouncer's words for a waiting login");
    }

    @Test
    void aLoginGreetedInTimeIsNotEndedByItsQueryTimeout() {
        SessionHarness.Config c = config();
        c.queryTimeout = 3 * S;
        c.holdWelcome = true;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.time.advance(S);
        h.heldWelcome.welcome(io.sluice.proto.codec.ParameterStatuses.of(java.util.Map.of("server_version", "15.0")));
        h.time.advance(10 * S);
        assertEquals(ClientSession.State.IDLE, h.session.state());
    }

    @Test
    void onlyAClientThePoolQueuesGetsAWaitTimer() {
        // query_wait_notify's default: a timer for every checkout would be one scheduled task and
        // one cancel a login, while an idle server answers most checkouts at once
        SessionHarness.Config c = config();
        c.queryWaitNotify = 5 * S;
        var served = new SessionHarness(PoolMode.TRANSACTION, c);
        int before = served.time.queued();
        served.clientSends(Encoders.query(ALLOC, "select 1"));
        assertEquals(ClientSession.State.ACTIVE, served.session.state());
        assertEquals(before, served.time.queued(), "answered at once: nothing scheduled for the wait");

        c.holdCheckouts = true;
        var queued = new SessionHarness(PoolMode.TRANSACTION, c);
        before = queued.time.queued();
        queued.clientSends(Encoders.query(ALLOC, "select 1"));
        assertEquals(ClientSession.State.WAITING, queued.session.state());
        assertEquals(before + 1, queued.time.queued(), "queued: the notice's timer");
    }

    @Test
    void aQueuedClientIsNotifiedOnceAFullSecondAfterQueryWaitNotify() {
        SessionHarness.Config c = config();
        c.queryWaitNotify = S;
        c.holdCheckouts = true;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        drain(h.client);
        h.time.advance(2 * S - MS);
        assertEquals("", drain(h.client));
        h.time.advance(MS);
        String notice = sent(h.client);
        assertTrue(notice.startsWith("N"), notice);
        assertTrue(notice.contains(RelayTimeouts.WAIT_NOTICE));
        assertTrue(notice.contains("C00000"));

        h.grantHeld();
        h.serverAnswers(TransactionStatus.IDLE);
        drain(h.client);
        h.clientSends(Encoders.query(ALLOC, "select 2"));
        h.time.advance(10 * S);
        assertEquals("", drain(h.client), "one notice per client, as in PgBouncer");
    }

    @Test
    void aClientServedBeforeQueryWaitNotifyGetsNoNotice() {
        SessionHarness.Config c = config();
        c.queryWaitNotify = S;
        c.holdCheckouts = true;
        var h = new SessionHarness(PoolMode.TRANSACTION, c);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.time.advance(S);
        h.grantHeld();
        h.serverAnswers(TransactionStatus.IDLE);
        h.time.advance(10 * S);
        assertFalse(sent(h.client).contains(RelayTimeouts.WAIT_NOTICE));
    }

    @Test
    void serverFastCloseClosesAnIdleSessionServerThatBecameCloseNeeded() {
        SessionHarness.Config c = config();
        c.serverFastClose = true;
        var h = new SessionHarness(PoolMode.SESSION, c);
        h.clientSends(Encoders.query(ALLOC, "begin"));
        h.serverAnswers(TransactionStatus.IN_TRANSACTION);
        h.closeNeeded = true;
        assertFalse(h.session.closeIfServerClosing(), "an open transaction finishes first");
        h.clientSends(Encoders.query(ALLOC, "commit"));
        drain(h.client);
        h.serverAnswers(TransactionStatus.IDLE);
        assertEquals(ClientSession.State.CLOSED, h.session.state(), "closed at the transaction's end");
        assertTrue(sent(h.client).contains(Relay.FAST_CLOSE));
        assertEquals(List.of("discard: " + Relay.FAST_CLOSE), h.leaseEnds);
    }

    @Test
    void serverFastCloseSweepsAnIdleLinkedSessionAtOnce() {
        SessionHarness.Config c = config();
        c.serverFastClose = true;
        var h = new SessionHarness(PoolMode.SESSION, c);
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.serverAnswers(TransactionStatus.IDLE);
        assertFalse(h.session.closeIfServerClosing(), "not close_needed yet");
        h.closeNeeded = true;
        assertTrue(h.session.closeIfServerClosing());
        assertEquals(ClientSession.State.CLOSED, h.session.state());
        assertNull(h.session.server());
    }

    @Test
    void withoutServerFastCloseACloseNeededSessionServerStaysWithItsClient() {
        var h = new SessionHarness(PoolMode.SESSION, config());
        h.clientSends(Encoders.query(ALLOC, "select 1"));
        h.closeNeeded = true;
        h.serverAnswers(TransactionStatus.IDLE);
        assertFalse(h.session.closeIfServerClosing());
        assertEquals(ClientSession.State.ACTIVE, h.session.state());
        assertEquals(List.of(), h.leaseEnds);
    }
}
