package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import io.sluice.session.state.PinProbe;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.sluice.session.Wire.all;
import static io.sluice.session.Wire.complete;
import static io.sluice.session.Wire.query;
import static io.sluice.session.Wire.ready;
import static io.sluice.session.Wire.row;
import static io.sluice.session.Wire.toClient;
import static io.sluice.session.Wire.toServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SET replay and pins in transaction pooling, on EmbeddedChannels with two servers: a client's
 * settings follow it to the next server and never reach another client; LISTEN and the like keep
 * the server until the server says the state is gone.
 */
class SessionStateTest {
    static final String PROBE = "Q " + PinProbe.SQL;

    SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 2, 200, 0);
    EmbeddedChannel s1 = h.serverChannels.get(0);
    EmbeddedChannel s2 = h.serverChannels.get(1);

    private static ByteBuf notification(String channel, String payload) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte('A').writeInt(0).writeInt(4242);
        b.writeCharSequence(channel + "\0" + payload + "\0", StandardCharsets.ISO_8859_1);
        b.setInt(1, b.readableBytes() - 1);
        return b;
    }

    private static ByteBuf flush() {
        return Unpooled.buffer(5).writeByte('H').writeInt(4);
    }

    private void clientSetsTimeoutOnServer1() {
        h.clientSends(query("set statement_timeout = '5s'"));
        assertEquals(List.of("Q set statement_timeout = '5s'"), toServer(s1));
        s1.writeInbound(all(complete("SET"), ready('I')));
        assertEquals(List.of("C SET", "Z I"), toClient(h.client));
        assertEquals(List.of("release"), h.leaseEnds);
    }

    @Test
    void aSetFollowsItsClientAndIsResetForTheNext() {
        clientSetsTimeoutOnServer1();
        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(query("begin"));
        assertEquals(List.of("Q RESET \"statement_timeout\";", "Q begin"), toServer(s1),
                "the other client's value is gone before its first message");
        s1.writeInbound(all(complete("RESET"), ready('I'), complete("BEGIN"), ready('T')));
        assertEquals(List.of("C BEGIN", "Z T"), toClient(b.channel()), "the RESET's answer is Sluice's");

        h.clientSends(query("show statement_timeout"));
        assertSame(h.servers.get(1), h.session.server());
        assertEquals(List.of("Q SET \"statement_timeout\" TO '5s';", "Q show statement_timeout"), toServer(s2));
        s2.writeInbound(all(complete("SET"), ready('I'), row("5s"), complete("SHOW"), ready('I')));
        assertEquals(List.of("D", "C SHOW", "Z I"), toClient(h.client));

        h.clientSends(query("select 1"));
        assertEquals(List.of("Q select 1"), toServer(s2), "server 2 has it now: nothing to replay");
    }

    @Test
    void aRolledBackSetIsNotReplayed() {
        h.clientSends(query("begin; set work_mem = '1MB'"));
        s1.writeInbound(all(complete("BEGIN"), complete("SET"), ready('T')));
        h.clientSends(query("rollback"));
        s1.writeInbound(all(complete("ROLLBACK"), ready('I')));
        toServer(s1);
        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(query("select 1"));
        assertEquals(List.of("Q select 1"), toServer(s1));
    }

    @Test
    void listenKeepsTheServerAndNotificationsReachTheIdleListener() {
        h.clientSends(query("listen jobs"));
        assertEquals(List.of("Q listen jobs"), toServer(s1));
        s1.writeInbound(all(complete("LISTEN"), ready('I')));
        assertEquals(List.of("C LISTEN", "Z I"), toClient(h.client));
        assertEquals(List.of(PROBE), toServer(s1), "asked once the transaction ended");
        s1.writeInbound(all(row("1", "0", "0", "0"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of(), h.leaseEnds, "pinned: the server stays");
        assertEquals(1, h.clients.pins().count(h.session.poolKey()));
        assertEquals(List.of(), toClient(h.client), "the probe's answer is Sluice's");

        s1.writeInbound(notification("jobs", "42"));
        assertEquals(List.of("A"), toClient(h.client));

        int checkouts = h.checkouts;
        h.clientSends(query("unlisten *"));
        assertEquals(checkouts, h.checkouts, "no checkout while pinned");
        assertEquals(List.of("Q unlisten *"), toServer(s1));
        s1.writeInbound(all(complete("UNLISTEN"), ready('I')));
        assertEquals(List.of(PROBE), toServer(s1));
        s1.writeInbound(all(row("0", "0", "0", "0"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("release"), h.leaseEnds, "state gone: back to the pool");
        assertEquals(0, h.clients.pins().count(h.session.poolKey()));
    }

    @Test
    void aPinnedClientThatLeavesTakesItsStateAlong() {
        h.clientSends(query("create temp table t (a int)"));
        s1.writeInbound(all(complete("CREATE TABLE"), ready('I')));
        toServer(s1);
        s1.writeInbound(all(row("0", "1", "0", "0"), complete("SELECT 1"), ready('I')));
        h.client.close();
        assertEquals(List.of("Q DISCARD ALL"), toServer(s1));
        s1.writeInbound(all(complete("DISCARD ALL"), ready('I')));
        assertEquals(List.of("release"), h.leaseEnds);
        assertEquals(0, h.clients.pins().count(h.session.poolKey()));
    }

    @Test
    void aClientThatLeavesWhileItsServerIsAskedAboutPinsLeavesNoAnswerForTheNext() {
        // node-postgres closes right after its last query: the probe's answer is still on the way
        h.clientSends(query("select pg_advisory_unlock(1)"));
        s1.writeInbound(all(row("t"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("Q select pg_advisory_unlock(1)", PROBE), toServer(s1));
        h.client.close();
        assertEquals(List.of("Q DISCARD ALL"), toServer(s1));
        s1.writeInbound(all(row("0", "0", "0", "0"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of(), h.leaseEnds, "the probe's ReadyForQuery does not end the DISCARD ALL");
        s1.writeInbound(all(complete("DISCARD ALL"), ready('I')));
        assertEquals(List.of("release"), h.leaseEnds);

        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(query("select 2"));
        assertEquals(List.of("Q select 2"), toServer(s1));
        s1.writeInbound(all(row("2"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("D", "C SELECT 1", "Z I"), toClient(b.channel()));
        assertEquals(ClientSession.State.IDLE, b.session().state());
    }

    @Test
    void beyondMaxPinnedServersTheClientIsToldWhichKey() {
        h = new SessionHarness(PoolMode.TRANSACTION, 2, 200, 1);
        s1 = h.serverChannels.get(0);
        s2 = h.serverChannels.get(1);
        h.clientSends(query("select pg_advisory_lock(1)"));
        s1.writeInbound(all(row(""), complete("SELECT 1"), ready('I')));
        toServer(s1);
        s1.writeInbound(all(row("0", "0", "1", "0"), complete("SELECT 1"), ready('I')));
        toClient(h.client);

        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(query("listen x"));
        assertEquals(List.of("Q listen x"), toServer(s2));
        s2.writeInbound(all(complete("LISTEN"), ready('I')));
        toServer(s2);
        s2.writeInbound(all(row("1", "0", "0", "0"), complete("SELECT 1"), ready('I')));
        List<String> got = toClient(b.channel());
        assertEquals("E 53300", got.get(got.size() - 1));
        assertEquals(ClientSession.State.CLOSED, b.session().state());
        assertEquals(List.of("Q DISCARD ALL"), toServer(s2), "its LISTEN does not stay for the next client");
        assertEquals(1, h.clients.pins().count(h.session.poolKey()), "the first pin holds");
    }

    @Test
    void whatCannotBeReplayedPinsWithoutAProbe() {
        h.clientSends(query("select set_config('app.user', 'x', false)"));
        s1.writeInbound(all(row("x"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("Q select set_config('app.user', 'x', false)"), toServer(s1));
        assertEquals(List.of(), h.leaseEnds);
        h.clientSends(query("reset all"));
        s1.writeInbound(all(complete("RESET"), ready('I')));
        assertEquals(List.of("release"), h.leaseEnds);
    }

    @Test
    void sqlPreparedStatementsFollowTheirClient() {
        h.clientSends(query("prepare q1 as select 1"));
        s1.writeInbound(all(complete("PREPARE"), ready('I')));
        toServer(s1);
        assertEquals(List.of("C PREPARE", "Z I"), toClient(h.client));
        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(query("begin"));
        assertEquals(List.of("Q DEALLOCATE \"q1\"", "Q begin"), toServer(s1), "not another client's to execute");
        s1.writeInbound(all(complete("DEALLOCATE"), ready('I'), complete("BEGIN"), ready('T')));
        h.clientSends(query("execute q1"));
        assertEquals(List.of("Q prepare q1 as select 1", "Q execute q1"), toServer(s2));
        s2.writeInbound(all(complete("PREPARE"), ready('I'), row("1"), complete("SELECT 1"), ready('I')));
        assertEquals(List.of("D", "C SELECT 1", "Z I"), toClient(h.client));
        assertTrue(h.leaseEnds.contains("release"));
    }

    @Test
    void aPreparedStatementThatTakesALockIsProbedToo() {
        // asyncpg: Parse, Describe, Flush; then Bind, Execute with a row limit, Sync
        h.clientSends(all(Wire.parse("st", "select pg_advisory_lock(1)"), Wire.describe('S', "st"), flush()));
        assertEquals(List.of("P sluice_1", "D S:sluice_1", "H"), toServer(s1));
        s1.writeInbound(all(Wire.reply('1'), Wire.reply('t'), Wire.reply('T')));
        assertEquals(List.of("1", "t", "T"), toClient(h.client));
        h.clientSends(all(Wire.bind("", "st"), Wire.execute(""), Wire.sync()));
        assertEquals(List.of("B sluice_1", "E", "S"), toServer(h.serverChannels.get(0)));
        s1.writeInbound(all(Wire.reply('2'), row(""), Wire.reply('s'), ready('I')));
        assertEquals(List.of(PROBE), toServer(s1), "a row limit (asyncpg's fetchval) suspends the portal");
    }

    @Test
    void aPinRefusedAtReadyForQueryClosesTheClientAndCleansItsServer() {
        h = new SessionHarness(PoolMode.TRANSACTION, 2, 200, 1);
        s1 = h.serverChannels.get(0);
        s2 = h.serverChannels.get(1);
        h.clientSends(query("select set_config('a.b', 'x', false)"));
        s1.writeInbound(all(row("x"), complete("SELECT 1"), ready('I')));
        SessionHarness.ClientEnd b = h.newClient();
        b.channel().writeInbound(query("select set_config('a.b', 'y', false)"));
        toServer(s2);
        s2.writeInbound(all(row("y"), complete("SELECT 1"), ready('I')));
        List<String> got = toClient(b.channel());
        assertEquals(List.of("D", "C SELECT 1", "Z I", "E 53300"), got);
        assertEquals(ClientSession.State.CLOSED, b.session().state());
        assertEquals(List.of("Q DISCARD ALL"), toServer(s2));
        s2.writeInbound(all(complete("DISCARD ALL"), ready('I')));
        assertEquals(List.of("release"), h.leaseEnds, "the cleaned server goes back; the first pin keeps its own");
    }
}
