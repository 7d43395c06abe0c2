package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.proto.PgError;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.ExtendedCodec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.session.SessionHarness.ALLOC;

/** Protocol messages for relay tests, and what a channel was sent, as short readable strings. */
final class Wire {
    private Wire() {
    }

    static ByteBuf parse(String name, String sql) {
        byte[] q = (sql + "\0\0\0").getBytes(StandardCharsets.ISO_8859_1);
        return ExtendedCodec.parse(ALLOC, name, q);
    }

    static ByteBuf bind(String portal, String statement) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte('B').writeInt(0);
        b.writeCharSequence(portal, StandardCharsets.ISO_8859_1);
        b.writeByte(0);
        b.writeCharSequence(statement, StandardCharsets.ISO_8859_1);
        b.writeByte(0);
        b.writeShort(0).writeShort(1).writeInt(2).writeBytes("42".getBytes(StandardCharsets.ISO_8859_1))
                .writeShort(0);
        b.setInt(1, b.readableBytes() - 1);
        return b;
    }

    static ByteBuf execute(String portal) {
        ByteBuf b = Unpooled.buffer();
        b.writeByte('E').writeInt(0);
        b.writeCharSequence(portal, StandardCharsets.ISO_8859_1);
        b.writeByte(0).writeInt(0);
        b.setInt(1, b.readableBytes() - 1);
        return b;
    }

    static ByteBuf sync() {
        return Unpooled.buffer(5).writeByte('S').writeInt(4);
    }

    static ByteBuf describe(char what, String name) {
        return ExtendedCodec.describeOrClose(ALLOC, 'D', what, name);
    }

    static ByteBuf close(char what, String name) {
        return ExtendedCodec.describeOrClose(ALLOC, 'C', what, name);
    }

    static ByteBuf query(String sql) {
        return Encoders.query(ALLOC, sql);
    }

    // ---- server replies -------------------------------------------------------------------------

    static ByteBuf reply(char type) {
        return ExtendedCodec.empty(ALLOC, type);
    }

    static ByteBuf complete(String tag) {
        return Encoders.commandComplete(ALLOC, tag);
    }

    static ByteBuf ready(char status) {
        return Encoders.readyForQuery(ALLOC, TransactionStatus.of(status));
    }

    static ByteBuf error(String code, String message) {
        return Encoders.error(ALLOC, PgError.error(code, message));
    }

    static ByteBuf row(String... values) {
        return Encoders.dataRow(ALLOC, List.of(values));
    }

    static ByteBuf all(ByteBuf... parts) {
        return Unpooled.wrappedBuffer(parts);
    }

    // ---- what was sent ------------------------------------------------------------------------

    /** Messages written to a server: "P sluice_1", "B sluice_1", "Q text", "C sluice_2", "D sluice_1", "E", "S". */
    static List<String> toServer(EmbeddedChannel ch) {
        List<String> out = new ArrayList<>();
        for (Msg m : read(ch)) {
            ByteBuf body = m.body;
            out.add(switch (m.type) {
                case 'P', 'Q' -> m.type + " " + cstring(body);
                case 'B' -> {
                    cstring(body);
                    yield "B " + cstring(body);
                }
                case 'C', 'D' -> m.type + " " + (char) body.readByte() + ":" + cstring(body);
                default -> String.valueOf(m.type);
            });
            m.release();
        }
        return out;
    }

    /** Messages written to a client: "1", "2", "C SELECT 1", "E 42P05", "Z I", "A"... */
    static List<String> toClient(EmbeddedChannel ch) {
        List<String> out = new ArrayList<>();
        for (Msg m : read(ch)) {
            out.add(switch (m.type) {
                case 'C' -> "C " + cstring(m.body);
                case 'Z' -> "Z " + (char) m.body.readByte();
                case 'E' -> "E " + code(m.body);
                default -> String.valueOf(m.type);
            });
            m.release();
        }
        return out;
    }

    /** A C string at the reader index, advancing past its NUL; names read byte for byte. */
    private static String cstring(ByteBuf body) {
        int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
        String s = body.readCharSequence(end - body.readerIndex(), StandardCharsets.ISO_8859_1).toString();
        body.skipBytes(1);
        return s;
    }

    private static String code(ByteBuf body) {
        while (body.isReadable()) {
            byte f = body.readByte();
            if (f == 0) {
                break;
            }
            String v = cstring(body);
            if (f == 'C') {
                return v;
            }
        }
        return "?";
    }

    private record Msg(char type, ByteBuf body, ByteBuf whole) {
        void release() {
            whole.release();
        }
    }

    private static List<Msg> read(EmbeddedChannel ch) {
        ByteBuf all = Unpooled.buffer();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            all.writeBytes(b);
            b.release();
        }
        List<Msg> out = new ArrayList<>();
        while (all.readableBytes() >= 5) {
            char type = (char) all.getByte(all.readerIndex());
            int len = all.getInt(all.readerIndex() + 1);
            ByteBuf whole = all.readRetainedSlice(len + 1);
            out.add(new Msg(type, whole.slice(5, len - 4), whole));
        }
        all.release();
        return out;
    }
}
