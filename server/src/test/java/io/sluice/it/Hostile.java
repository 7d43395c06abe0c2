package io.sluice.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The vocabulary of the hostile-input catalogue ({@link HostileInputIT}): a case is a name, the
 * phase the connection is in when the input starts, a script that sends it, and the one outcome
 * that is acceptable: a PostgreSQL-format ErrorResponse and a close, a close with nothing said,
 * an error after which the session goes on, a normal answer, or silence (waiting for the rest).
 */
final class Hostile {
    private Hostile() {
    }

    /** Where the connection is when the script starts. */
    enum Phase {
        /** Just connected. */
        FRESH,
        /** Logged in (trust) as user {@code plain}, ReadyForQuery read. */
        LOGGED_IN,
        /** Startup sent as user {@code sasl}; AuthenticationSASL read, nothing answered yet. */
        SASL
    }

    sealed interface Outcome {
    }

    /** Sluice's ErrorResponse ({@code message} is a prefix), then the connection closes. */
    record ErrorClose(String code, String message) implements Outcome {
    }

    /** The connection closes with nothing written. */
    record Close() implements Outcome {
    }

    /** An ErrorResponse, then ReadyForQuery: the session goes on and answers a query. */
    record ErrorReady(String code, String message) implements Outcome {
    }

    /** Answered without error up to ReadyForQuery; the session answers a query. */
    record Ready() implements Outcome {
    }

    /** The connection closes, whatever was written before (the answer to a query never read). */
    record Ended() implements Outcome {
    }

    /** Nothing within a second, the connection still open (a partial message is awaited). */
    record Silent() implements Outcome {
    }

    @FunctionalInterface
    interface Script {
        void run(RawClient c) throws Exception;
    }

    record Case(String name, Phase phase, Script script, Outcome expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case of(String name, Phase phase, byte[] bytes, Outcome expected) {
        return new Case(name, phase, c -> c.send(bytes), expected);
    }

    static Outcome errorClose(String code, String message) {
        return new ErrorClose(code, message);
    }

    static Outcome errorReady(String code, String message) {
        return new ErrorReady(code, message);
    }

    static final Outcome CLOSE = new Close();
    static final Outcome READY = new Ready();
    static final Outcome SILENT = new Silent();
    static final Outcome ENDED = new Ended();

    // ---- bytes --------------------------------------------------------------------------------

    static byte[] cstr(String s) {
        return (s + "\0").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] i32(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    static byte[] i16(int v) {
        return ByteBuffer.allocate(2).putShort((short) v).array();
    }

    static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A typed message with its true length. */
    static byte[] msg(char type, byte[]... body) {
        byte[] b = cat(body);
        return cat(new byte[] {(byte) type}, i32(4 + b.length), b);
    }

    /** A typed message whose length field says {@code length}, whatever follows. */
    static byte[] header(char type, int length) {
        return cat(new byte[] {(byte) type}, i32(length));
    }

    /** A startup-phase packet: its true length, the code, the body. */
    static byte[] packet(int code, byte[]... body) {
        byte[] b = cat(body);
        return cat(i32(8 + b.length), i32(code), b);
    }

    static byte[] startup(Map<String, String> params) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        params.forEach((k, v) -> b.writeBytes(cat(cstr(k), cstr(v))));
        b.write(0);
        return packet(0x30000, b.toByteArray());
    }

    static final byte[] SYNC = msg('S');

    // ---- outcomes -----------------------------------------------------------------------------

    /** Reads what the connection does next and asserts it is {@code expected}. */
    static void verify(RawClient c, Outcome expected) throws IOException {
        if (expected instanceof Silent) {
            c.socket.setSoTimeout(1000);
            try {
                int b = c.readRawByte();
                throw new AssertionError("expected silence, got " + (b < 0 ? "EOF" : "byte " + b));
            } catch (SocketTimeoutException quiet) {
                return;
            } finally {
                c.socket.setSoTimeout(15_000);
            }
        }
        if (expected instanceof Ended) {
            assertThat(c.closedByServer()).as("closed").isTrue();
            return;
        }
        if (expected instanceof Close) {
            int b = c.readRawByte();
            assertThat(b).as("closed with nothing written").isEqualTo(-1);
            return;
        }
        RawClient.Message m = nextNotNotice(c);
        if (expected instanceof ErrorClose e) {
            assertError(m, e.code(), e.message());
            assertThat(c.closedByServer()).as("closed after the error").isTrue();
        } else if (expected instanceof ErrorReady e) {
            while (m.type() != 'E' && m.type() != 'Z') {
                m = c.readMessage(); // ParseComplete and the like, before the message that fails
            }
            assertError(m, e.code(), e.message());
            assertThat(c.readUntilReadyOrError()).as("ReadyForQuery after the error").isNull();
            assertThat(c.queryOne("select 41 + 1")).isEqualTo("42");
        } else {
            while (m.type() != 'Z') {
                if (m.type() == 'E') {
                    throw new AssertionError("an error: " + RawClient.fields(m.body()));
                }
                m = c.readMessage();
            }
            assertThat(c.queryOne("select 41 + 1")).isEqualTo("42");
        }
    }

    private static RawClient.Message nextNotNotice(RawClient c) throws IOException {
        RawClient.Message m = c.readMessage();
        while (m.type() == 'N') {
            m = c.readMessage();
        }
        return m;
    }

    private static void assertError(RawClient.Message m, String code, String message) {
        assertThat(m.type()).as("an ErrorResponse").isEqualTo('E');
        Map<Character, String> f = RawClient.fields(m.body());
        assertThat(f.get('C')).as(f.toString()).isEqualTo(code);
        assertThat(f.get('M')).as(f.toString()).startsWith(message);
        assertThat(f.get('S')).as("a severity").isNotNull();
    }
}
