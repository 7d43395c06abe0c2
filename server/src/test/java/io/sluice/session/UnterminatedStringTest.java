package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.config.PoolMode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.sluice.session.Wire.all;
import static io.sluice.session.Wire.error;
import static io.sluice.session.Wire.ready;
import static io.sluice.session.Wire.sync;
import static io.sluice.session.Wire.toClient;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A message whose name or text lacks its terminator, in transaction pooling, as PgBouncer 1.25
 * treats it: passed on for PostgreSQL to refuse ("invalid string in message", then on to Sync),
 * except a Parse, Bind, Describe or Close while prepared statements are tracked, which is refused
 * with "failed to parse packet" when its name is cut short, and a named Parse cut short after its
 * name, refused with "broken Parse packet".
 */
class UnterminatedStringTest {
    /** A message of {@code type} whose body is {@code text} with no NUL after it. */
    private static ByteBuf unterminated(char type, String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        return Unpooled.buffer().writeByte(type).writeInt(4 + b.length).writeBytes(b);
    }

    @Test
    void aQueryWithoutItsTerminatorGoesToPostgresqlWhichAnswersAndTheSessionGoesOn() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 1, 200, 0);
        EmbeddedChannel s1 = h.serverChannels.get(0);
        h.clientSends(unterminated('Q', "select 1"));
        passedOnAndAnswered(h, s1, "Q");
        assertEquals(List.of("release"), h.leaseEnds);
    }

    @Test
    void anExecuteWithoutItsTerminatorGoesToPostgresqlToo() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 1, 200, 0);
        EmbeddedChannel s1 = h.serverChannels.get(0);
        h.clientSends(all(unterminated('E', "p"), sync()));
        passedOnAndAnswered(h, s1, "ES");
    }

    @Test
    void withPreparedStatementsTrackedAParseWithoutItsTerminatorIsRefused() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 1, 200, 0);
        h.clientSends(all(unterminated('P', "s1"), sync()));
        assertFalse(SessionHarness.drain(h.serverChannels.get(0)).contains("P"), "the Parse never reaches the server");
        assertEquals(List.of("E 08P01"), toClient(h.client));
        assertFalse(h.client.isActive(), "closed, as PgBouncer 1.25 closes on 'failed to parse packet'");
    }

    @Test
    void withPreparedStatementsTrackedANamedParseCutShortAfterItsNameIsRefused() {
        // PgBouncer 1.25 reads a named Parse whole and closes with "broken Parse packet"
        byte[] noTextEnd = "s1\0select 1".getBytes(StandardCharsets.US_ASCII);
        byte[] typesCutShort = "s1\0select $1\0\0\1\0\0".getBytes(StandardCharsets.US_ASCII);
        for (byte[] body : List.of(noTextEnd, typesCutShort)) {
            SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 1, 200, 0);
            ByteBuf parse = Unpooled.buffer().writeByte('P').writeInt(4 + body.length).writeBytes(body);
            h.clientSends(all(parse, sync()));
            assertFalse(SessionHarness.drain(h.serverChannels.get(0)).contains("P"), "the Parse never reaches the server");
            assertEquals(List.of("E 08P01"), toClient(h.client));
            assertFalse(h.client.isActive());
        }
    }

    @Test
    void withPreparedStatementsTrackedAnUnnamedParseWithoutItsTextTerminatorGoesToPostgresql() {
        // PgBouncer passes an unnamed Parse on untouched, tracked or not
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 1, 200, 0);
        EmbeddedChannel s1 = h.serverChannels.get(0);
        h.clientSends(all(unterminated('P', "\0select 1"), sync()));
        passedOnAndAnswered(h, s1, "PS");
    }

    @Test
    void withoutPreparedStatementsAParseWithoutItsTerminatorGoesToPostgresql() {
        SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, 1, 0, 0);
        EmbeddedChannel s1 = h.serverChannels.get(0);
        h.clientSends(all(unterminated('P', "s1"), sync()));
        passedOnAndAnswered(h, s1, "PS");
    }

    /** The server got {@code types}; it answers as PostgreSQL does, the client gets that, and stays. */
    private static void passedOnAndAnswered(SessionHarness h, EmbeddedChannel server, String types) {
        assertEquals(types, SessionHarness.drain(server));
        server.writeInbound(all(error("08P01", "invalid string in message"), ready('I')));
        assertEquals(List.of("E 08P01", "Z I"), toClient(h.client));
        assertTrue(h.client.isActive(), "the client stays");
    }
}
