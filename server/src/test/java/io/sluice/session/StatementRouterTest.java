package io.sluice.session;

import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.session.Wire.all;
import static io.sluice.session.Wire.bind;
import static io.sluice.session.Wire.close;
import static io.sluice.session.Wire.complete;
import static io.sluice.session.Wire.describe;
import static io.sluice.session.Wire.error;
import static io.sluice.session.Wire.execute;
import static io.sluice.session.Wire.parse;
import static io.sluice.session.Wire.ready;
import static io.sluice.session.Wire.reply;
import static io.sluice.session.Wire.sync;
import static io.sluice.session.Wire.toClient;
import static io.sluice.session.Wire.toServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Protocol-level named statements in transaction pooling, on EmbeddedChannels with two servers:
 * Sluice's names on the wire, local answers in order, hidden Parse on a server that lacks the
 * statement, errors as PostgreSQL gives them, and the per-server LRU.
 */
class StatementRouterTest {
    final SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 2, 200, 0);
    final EmbeddedChannel s1 = h.serverChannels.get(0);
    final EmbeddedChannel s2 = h.serverChannels.get(1);

    /** Client A prepares S_1 and runs it once on server 1, which then goes back to the pool. */
    private void prepareAndRunOnServer1() {
        h.clientSends(all(parse("S_1", "select $1"), bind("", "S_1"), execute(""), sync()));
        assertEquals(List.of("P sluice_1", "B sluice_1", "E", "S"), toServer(s1));
        s1.writeInbound(all(reply('1'), reply('2'), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("1", "2", "C SELECT 1", "Z I"), toClient(h.client));
        assertEquals(List.of("release"), h.leaseEnds);
    }

    /** Another client takes server 1 and keeps it in a transaction. */
    private SessionHarness.ClientEnd holdServer1() {
        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(Wire.query("begin"));
        assertEquals(List.of("Q begin"), toServer(s1));
        s1.writeInbound(all(complete("BEGIN"), ready('T')));
        toClient(b.channel());
        assertSame(h.servers.get(0), b.session().server());
        return b;
    }

    @Test
    void aStatementFollowsItsClientToAnotherServer() {
        prepareAndRunOnServer1();
        holdServer1();
        h.clientSends(all(bind("", "S_1"), execute(""), sync()));
        assertSame(h.servers.get(1), h.session.server());
        assertEquals(List.of("P sluice_1", "B sluice_1", "E", "S"), toServer(s2), "a hidden Parse first");
        s2.writeInbound(all(reply('1'), reply('2'), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("2", "C SELECT 1", "Z I"), toClient(h.client), "its ParseComplete is not the client's");
    }

    @Test
    void aParseTheServerAlreadyHasIsAnsweredLocallyAndInOrder() {
        prepareAndRunOnServer1();
        // same text under another client name, behind a Parse the server must answer first
        h.clientSends(all(parse("other", "select 2"), parse("S_2", "select $1"), bind("", "S_2"), execute(""), sync()));
        assertEquals(List.of("P sluice_2", "B sluice_1", "E", "S"), toServer(s1));
        assertEquals(List.of(), toClient(h.client), "the local ParseComplete waits for the server's");
        s1.writeInbound(all(reply('1'), reply('2'), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("1", "1", "2", "C SELECT 1", "Z I"), toClient(h.client));
    }

    @Test
    void closeIsLocalAndTheNameCanBePreparedAgain() {
        prepareAndRunOnServer1();
        h.clientSends(all(close('S', "S_1"), close('S', "never_prepared"), parse("S_1", "select $1"), sync()));
        assertEquals(List.of("S"), toServer(s1), "neither Close nor the known Parse reach the server");
        assertEquals(List.of("3", "3", "1"), toClient(h.client));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("Z I"), toClient(h.client));
    }

    @Test
    void aDuplicateNameGetsPostgresqlsErrorAndTheRestUpToSyncIsSkipped() {
        prepareAndRunOnServer1();
        h.clientSends(all(parse("S_1", "select 3"), bind("", "S_1"), execute(""), sync()));
        assertEquals(List.of("S"), toServer(s1));
        assertEquals(List.of("E 42P05"), toClient(h.client));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("Z I"), toClient(h.client));
        assertEquals(ClientSession.State.IDLE, h.session.state(), "and the client carries on");
    }

    @Test
    void aRepeatedUnnamedParseIsClassifiedByItsBytes() {
        // the same text twice (the second answered from the last-text cache), then another text
        // of the same length that pins: it must be read afresh, not taken for the cached one
        for (String sql : List.of("select 12", "select 12", "listen jj")) {
            h.clientSends(all(parse("", sql), bind("", ""), execute(""), sync()));
            assertEquals(List.of("P ", "B ", "E", "S"), toServer(s1));
            s1.writeInbound(all(reply('1'), reply('2'), complete(sql.startsWith("listen") ? "LISTEN" : "SELECT 1"),
                    ready('I')));
            toClient(h.client);
        }
        assertEquals(List.of("release", "release"), h.leaseEnds, "the selects gave their server back");
        assertEquals(List.of(SessionStateTest.PROBE), toServer(s1), "LISTEN is asked about once it ends");
    }

    @Test
    void unknownNamesAreErrorsNotDisconnects() {
        h.clientSends(all(bind("", "nope"), execute(""), sync()));
        assertEquals(List.of("S"), toServer(s1));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("E 26000", "Z I"), toClient(h.client));
        h.clientSends(all(describe('S', "nope"), sync()));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("E 26000", "Z I"), toClient(h.client));
    }

    @Test
    void aParseThatFailsNamesNothing() {
        h.clientSends(all(parse("bad", "selec 1"), bind("", "bad"), execute(""), sync()));
        assertEquals(List.of("P sluice_1", "B sluice_1", "E", "S"), toServer(s1));
        s1.writeInbound(all(error("42601", "syntax error"), ready('I')));
        assertEquals(List.of("E 42601", "Z I"), toClient(h.client));
        h.clientSends(all(bind("", "bad"), sync()));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("E 26000", "Z I"), toClient(h.client));
        h.clientSends(all(parse("bad", "select 1"), sync()));
        assertEquals(List.of("S", "P sluice_2", "S"), toServer(s1), "a fresh Parse, not a local answer");
    }

    @Test
    void anErrorDropsLocalAnswersAndUndoesRegistrationsUpToSync() {
        prepareAndRunOnServer1();
        h.clientSends(all(bind("", "S_1"), parse("S_9", "select $1"), execute(""), sync()));
        s1.writeInbound(all(error("22P02", "invalid input"), ready('I')));
        assertEquals(List.of("E 22P02", "Z I"), toClient(h.client), "no ParseComplete after the error");
        h.clientSends(all(bind("", "S_9"), sync()));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("E 26000", "Z I"), toClient(h.client), "S_9 was skipped by the server, so it is unknown");
    }

    @Test
    void theLruEvictsOnTheServerWithAHiddenClose() {
        SessionHarness small = new SessionHarness(PoolMode.TRANSACTION, 1, 2, 0);
        EmbeddedChannel s = small.serverChannels.get(0);
        small.clientSends(all(parse("a", "select 1"), parse("b", "select 2"), parse("c", "select 3"), sync()));
        assertEquals(List.of("P sluice_1", "P sluice_2", "C S:sluice_1", "P sluice_3", "S"), toServer(s));
        s.writeInbound(all(reply('1'), reply('1'), reply('3'), reply('1'), ready('I')));
        assertEquals(List.of("1", "1", "1", "Z I"), toClient(small.client), "the CloseComplete is Sluice's");
        small.clientSends(all(bind("", "a"), sync()));
        assertEquals(List.of("C S:sluice_2", "P sluice_4", "B sluice_4", "S"), toServer(s), "a is prepared again");
    }

    @Test
    void aPipelinedDeallocateAllForgetsOnlyWhatCameBeforeIt() {
        prepareAndRunOnServer1();
        h.clientSends(all(Wire.query("DEALLOCATE ALL"), parse("S_2", "select 7"), sync()));
        assertEquals(List.of("Q DEALLOCATE ALL", "P sluice_2", "S"), toServer(s1));
        s1.writeInbound(all(complete("DEALLOCATE ALL"), ready('I'), reply('1'), ready('I')));
        assertEquals(List.of("C DEALLOCATE ALL", "Z I", "1", "Z I"), toClient(h.client));
        assertS1IsGone("S_1 went with DEALLOCATE ALL");
        h.clientSends(all(bind("", "S_2"), sync()));
        assertEquals(List.of("B sluice_2", "S"), toServer(s1), "S_2 survived: it was parsed after the reset");
    }

    @Test
    void aDeallocateAllTagClearsWhateverTheStatementWasTakenFor() {
        // the tags of statements taken for inert are not read, except ones that may clear statements
        prepareAndRunOnServer1();
        h.clientSends(Wire.query("SELECT 1"));
        assertEquals(List.of("Q SELECT 1"), toServer(s1));
        s1.writeInbound(all(complete("DEALLOCATE ALL"), ready('I')));
        assertEquals(List.of("C DEALLOCATE ALL", "Z I"), toClient(h.client));
        assertS1IsGone("S_1 went with the server's DEALLOCATE ALL");
    }

    /** A Bind of S_1 reaches the server as its Sync alone and the client gets 26000: Sluice forgot S_1. */
    private void assertS1IsGone(String why) {
        h.clientSends(all(bind("", "S_1"), sync()));
        assertEquals(List.of("S"), toServer(s1));
        s1.writeInbound(ready('I'));
        assertEquals(List.of("E 26000", "Z I"), toClient(h.client), why);
    }

    @Test
    void sqlDeallocateOfAProtocolNameUsesTheServersName() {
        prepareAndRunOnServer1();
        h.clientSends(Wire.query("DEALLOCATE \"S_1\""));
        assertEquals(List.of("Q DEALLOCATE sluice_1"), toServer(s1));
        s1.writeInbound(all(complete("DEALLOCATE"), ready('I')));
        assertEquals(List.of("C DEALLOCATE", "Z I"), toClient(h.client));
        h.clientSends(all(parse("S_1", "select $1"), sync()));
        assertEquals(List.of("P sluice_2", "S"), toServer(s1), "the server's statement went too");
    }

    @Test
    void aStalePlanIsPassedOnOnceThenPreparedAfresh() {
        prepareAndRunOnServer1();
        h.clientSends(all(bind("", "S_1"), execute(""), sync()));
        toServer(s1);
        s1.writeInbound(all(error("0A000", "cached plan must not change result type"), ready('I')));
        assertEquals(List.of("E 0A000", "Z I"), toClient(h.client));
        h.clientSends(all(bind("", "S_1"), execute(""), sync()));
        assertEquals(List.of("C S:sluice_1", "P sluice_2", "B sluice_2", "E", "S"), toServer(s1));
    }

    @Test
    void withTheCacheOffNamesPassThrough() {
        SessionHarness off = new SessionHarness(PoolMode.TRANSACTION, 1, 0, 0);
        EmbeddedChannel s = off.serverChannels.get(0);
        off.clientSends(all(parse("S_1", "select 1"), bind("", "S_1"), close('S', "S_1"), sync()));
        assertEquals(List.of("P S_1", "B S_1", "C S:S_1", "S"), toServer(s));
        s.writeInbound(all(reply('1'), reply('2'), reply('3'), ready('I')));
        assertEquals(List.of("1", "2", "3", "Z I"), toClient(off.client));
    }

    @Test
    void sessionModeDoesNotTouchNames() {
        SessionHarness session = new SessionHarness(PoolMode.SESSION, 1, 200, 0);
        session.clientSends(all(parse("S_1", "select 1"), sync()));
        assertEquals(List.of("P S_1", "S"), toServer(session.serverChannels.get(0)));
        assertNull(session.servers.get(0).sessionState());
    }
}
