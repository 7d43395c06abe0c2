package io.sluice.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.sluice.it.Hostile.CLOSE;
import static io.sluice.it.Hostile.Phase.LOGGED_IN;
import static io.sluice.it.Hostile.READY;
import static io.sluice.it.Hostile.SILENT;
import static io.sluice.it.Hostile.SYNC;
import static io.sluice.it.Hostile.cat;
import static io.sluice.it.Hostile.cstr;
import static io.sluice.it.Hostile.errorClose;
import static io.sluice.it.Hostile.errorReady;
import static io.sluice.it.Hostile.header;
import static io.sluice.it.Hostile.i16;
import static io.sluice.it.Hostile.i32;
import static io.sluice.it.Hostile.msg;
import static io.sluice.it.Hostile.of;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogue's second part: a logged-in client (transaction pooling) sending every frontend
 * message type with bad lengths, counts and kinds. Sluice refuses what it judges itself (framing,
 * types that do not exist) in PgBouncer's words and closes; a message that is well framed but
 * wrong inside goes to PostgreSQL, whose ERROR (08P01 or the like) the client gets with the
 * session intact, as it would directly.
 */
final class HostileMessageCases {
    private HostileMessageCases() {
    }

    private static byte[] parse(String name, String sql, int count, int... oids) {
        byte[] types = new byte[0];
        for (int oid : oids) {
            types = cat(types, i32(oid));
        }
        return msg('P', cstr(name), cstr(sql), i16(count), types);
    }

    private static byte[] bind(String portal, String stmt, byte[] rest) {
        return msg('B', cstr(portal), cstr(stmt), rest);
    }

    static List<Hostile.Case> cases() {
        List<Hostile.Case> cs = new ArrayList<>();
        // framing, judged by Sluice
        cs.add(of("Query length 3", LOGGED_IN, header('Q', 3), errorClose("08P01", "bad packet header")));
        cs.add(of("Query length -5", LOGGED_IN, header('Q', -5), errorClose("08P01", "bad packet header")));
        cs.add(of("Query length 2^31-1", LOGGED_IN, header('Q', Integer.MAX_VALUE),
                errorClose("08P01", "bad packet header")));
        cs.add(of("Query above max_packet_size", LOGGED_IN, header('Q', 2 << 20),
                errorClose("08P01", "bad packet header")));
        cs.add(of("Query length longer than sent, then silence", LOGGED_IN, cat(header('Q', 100), cstr("select")),
                SILENT));
        cs.add(of("unknown type 'y'", LOGGED_IN, msg('y'), errorClose("08P01", "unknown pkt")));
        cs.add(of("type 0x00", LOGGED_IN, msg((char) 0, new byte[3]),
                errorClose("08P01", "bad packet header: '0000000007000000'")));
        cs.add(of("type 0xff", LOGGED_IN, msg((char) 0xff), errorClose("08P01", "unknown pkt")));
        cs.add(of("PasswordMessage after login", LOGGED_IN, msg('p', cstr("secret")),
                errorClose("08P01", "unknown pkt")));
        cs.add(of("a second startup packet", LOGGED_IN, Hostile.startup(HostileStartupCases.LOGIN),
                errorClose("08P01", "unknown pkt"))); // read as a message of type 0x00
        // Query
        // passed on, as PgBouncer does: PostgreSQL answers "invalid string in message" and goes on
        cs.add(of("Query without its terminator", LOGGED_IN, msg('Q', "select 1".getBytes()),
                errorReady("08P01", "invalid string in message")));
        cs.add(of("Query with bytes after its terminator", LOGGED_IN, msg('Q', cstr("select 1"), new byte[] {1, 2}),
                errorReady("08P01", "invalid message format")));
        cs.add(of("Query with a NUL inside", LOGGED_IN, msg('Q', cstr("select 1"), cstr("select 2")),
                errorReady("08P01", "invalid message format")));
        // Parse
        cs.add(of("Parse with parameter count -1", LOGGED_IN, cat(parse("", "select 1", -1), SYNC),
                errorReady("08P01", "insufficient data left in message")));
        cs.add(of("Parse counting 5 types, giving none", LOGGED_IN, cat(parse("", "select 1", 5), SYNC),
                errorReady("08P01", "insufficient data left in message")));
        // with prepared statements tracked, PgBouncer 1.25 refuses a Parse, Bind, Describe or Close
        // it cannot read; so does Sluice
        cs.add(of("Parse with an unterminated name", LOGGED_IN, cat(msg('P', "s1".getBytes()), SYNC),
                errorClose("08P01", "failed to parse packet")));
        // a named Parse cut short after its name: PgBouncer 1.25 reads it whole before it registers
        // the name, and closes with "broken Parse packet"; an unnamed one it passes on untouched
        cs.add(of("Parse of a named statement without its text terminator", LOGGED_IN,
                cat(msg('P', cstr("s1"), "select 1".getBytes()), SYNC), errorClose("08P01", "broken Parse packet")));
        cs.add(of("Parse of a named statement counting 5 types, giving none", LOGGED_IN,
                cat(parse("s1", "select 1", 5), SYNC), errorClose("08P01", "broken Parse packet")));
        cs.add(of("Parse of the unnamed statement without its text terminator", LOGGED_IN,
                cat(msg('P', cstr(""), "select 1".getBytes()), SYNC), errorReady("08P01", "invalid string in message")));
        cs.add(of("Parse of 2 statements", LOGGED_IN, cat(parse("", "select 1; select 2", 0), SYNC),
                errorReady("42601", "cannot insert multiple commands into a prepared statement")));
        // Bind
        cs.add(of("Bind with more parameters than the statement", LOGGED_IN,
                cat(parse("", "select 1", 0), bind("", "", cat(i16(0), i16(2), i32(1), "1".getBytes(), i32(1),
                        "2".getBytes(), i16(0))), SYNC), errorReady("08P01", "bind message supplies 2 parameters")));
        cs.add(of("Bind with parameter count -1", LOGGED_IN,
                cat(parse("", "select 1", 0), bind("", "", cat(i16(0), i16(-1), i16(0))), SYNC),
                errorReady("08P01", "bind message supplies 65535 parameters")));
        cs.add(of("Bind with format count -1", LOGGED_IN,
                cat(parse("", "select 1", 0), bind("", "", cat(i16(-1), i16(0), i16(0))), SYNC),
                errorReady("08P01", "insufficient data left in message")));
        cs.add(of("Bind with value length -2", LOGGED_IN,
                cat(parse("", "select $1::int", 0), bind("", "", cat(i16(0), i16(1), i32(-2), i16(0))), SYNC),
                errorReady("08P01", "insufficient data left in message")));
        cs.add(of("Bind with value length past the end", LOGGED_IN,
                cat(parse("", "select $1::int", 0), bind("", "", cat(i16(0), i16(1), i32(1000), i16(0))), SYNC),
                errorReady("08P01", "insufficient data left in message")));
        cs.add(of("Bind of an unknown statement", LOGGED_IN, cat(bind("", "nope", cat(i16(0), i16(0), i16(0))), SYNC),
                errorReady("26000", "prepared statement \"nope\" does not exist")));
        cs.add(of("Bind with an unterminated portal name", LOGGED_IN, cat(msg('B', "p".getBytes()), SYNC),
                errorClose("08P01", "failed to parse packet")));
        // Execute, Describe, Close
        cs.add(of("Execute of an unknown portal", LOGGED_IN, cat(msg('E', cstr("nope"), i32(0)), SYNC),
                errorReady("34000", "portal \"nope\" does not exist")));
        cs.add(of("Execute without its row limit", LOGGED_IN, cat(msg('E', cstr("")), SYNC),
                errorReady("08P01", "insufficient data left in message")));
        cs.add(of("Execute with an unterminated portal name", LOGGED_IN, cat(msg('E', "p".getBytes()), SYNC),
                errorReady("08P01", "invalid string in message")));
        cs.add(of("Describe of kind 'X'", LOGGED_IN, cat(msg('D', new byte[] {'X'}, cstr("")), SYNC),
                errorReady("08P01", "invalid DESCRIBE message subtype 88")));
        cs.add(of("Describe with no body", LOGGED_IN, cat(msg('D'), SYNC),
                errorReady("08P01", "no data left in message")));
        cs.add(of("Close of kind 'X'", LOGGED_IN, cat(msg('C', new byte[] {'X'}, cstr("")), SYNC),
                errorReady("08P01", "invalid CLOSE message subtype 88")));
        cs.add(of("Close with no body", LOGGED_IN, cat(msg('C'), SYNC),
                errorReady("08P01", "no data left in message")));
        // COPY messages outside COPY, Sync/Flush/Terminate with a payload, FunctionCall
        cs.add(of("CopyData outside COPY", LOGGED_IN, cat(msg('d', new byte[100]), SYNC), READY));
        cs.add(of("CopyDone outside COPY", LOGGED_IN, cat(msg('c'), SYNC), READY));
        cs.add(of("CopyFail outside COPY", LOGGED_IN, cat(msg('f', cstr("no")), SYNC), READY));
        cs.add(of("Sync with a payload", LOGGED_IN, msg('S', new byte[4]),
                errorReady("08P01", "invalid message format")));
        cs.add(of("Flush with a payload", LOGGED_IN, cat(msg('H', new byte[4]), SYNC),
                errorReady("08P01", "invalid message format")));
        cs.add(of("Terminate with a payload", LOGGED_IN, msg('X', new byte[4]), CLOSE));
        cs.add(of("FunctionCall of OID 0", LOGGED_IN, msg('F', i32(0), i16(0), i16(0), i16(0)),
                errorReady("42883", "function with OID 0 does not exist")));
        cs.add(of("FunctionCall with argument count -1", LOGGED_IN, msg('F', i32(1242), i16(0), i16(-1), i16(0)),
                errorReady("08P01", "function call message contains 65535 arguments")));
        // many, large, slow, half-sent
        cs.add(new Hostile.Case("1000 Syncs", LOGGED_IN, c -> {
            c.send(many(SYNC, 1000));
            for (int i = 0; i < 999; i++) {
                assertThat(c.readUntilReadyOrError()).isNull();
            }
        }, READY));
        cs.add(of("500 Parse/Bind/Execute then one Sync", LOGGED_IN, many(cat(parse("", "select 1", 0),
                bind("", "", cat(i16(0), i16(0), i16(0))), msg('E', cstr(""), i32(0))), 500, SYNC), READY));
        cs.add(of("a 900 kB query", LOGGED_IN, msg('Q', cstr("select '" + "x".repeat(900_000) + "' = ''")), READY));
        cs.add(new Hostile.Case("Query a byte every 20 ms", LOGGED_IN, c -> {
            byte[] q = msg('Q', cstr("select 1"));
            for (int i = 0; i < q.length; i++) {
                c.send(Arrays.copyOfRange(q, i, i + 1));
                Thread.sleep(20); // a slow sender's pace, not a wait for a condition
            }
        }, READY));
        cs.add(new Hostile.Case("a large result never read, then close", LOGGED_IN, c -> {
            c.send(msg('Q', cstr("select repeat('x', 1000) from generate_series(1, 200000)")));
            c.socket.shutdownOutput();
        }, Hostile.ENDED));
        cs.add(new Hostile.Case("half a message, then close", LOGGED_IN, c -> {
            c.send(cat(header('Q', 1000), "select".getBytes()));
            c.socket.shutdownOutput();
        }, CLOSE));
        cs.add(new Hostile.Case("close inside a transaction", LOGGED_IN, c -> {
            c.send(msg('Q', cstr("begin; select 1")));
            c.readUntilReadyOrError();
            c.socket.shutdownOutput();
        }, CLOSE));
        return cs;
    }

    private static byte[] many(byte[] one, int n, byte[]... tail) {
        byte[][] parts = new byte[n + tail.length][];
        Arrays.fill(parts, 0, n, one);
        System.arraycopy(tail, 0, parts, n, tail.length);
        return cat(parts);
    }
}
