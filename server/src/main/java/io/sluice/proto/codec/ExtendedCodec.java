package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;

import java.nio.charset.StandardCharsets;

/**
 * Reading and writing the extended-protocol messages the pooler rewrites when it keeps
 * prepared statements per server (Parse, Bind, Describe, Close, Query, and the replies it answers
 * itself). Names and query text are read byte for byte (ISO-8859-1), so whatever
 * client_encoding the client uses, a name written back is the bytes it sent.
 */
public final class ExtendedCodec {
    /**
     * The most parameter bytes a rewritten Bind copies. Most Binds carry a few short values, for
     * which a copy is cheaper than a composite buffer and its parts; large values (documents,
     * bytea) keep the path that copies nothing.
     */
    static final int BIND_COPY_MAX = 4096;

    private ExtendedCodec() {
    }

    /** The bytes from the reader index to the end (what follows a Parse's statement name). */
    public static byte[] rest(ByteBuf body) {
        byte[] b = new byte[body.readableBytes()];
        body.readBytes(b);
        return b;
    }

    public static ByteBuf parse(ByteBufAllocator alloc, String name, byte[] afterName) {
        ByteBuf buf = alloc.buffer(6 + name.length() + afterName.length);
        int at = Wire.begin(buf, 'P');
        latin1(buf, name);
        buf.writeBytes(afterName);
        Wire.end(buf, at);
        return buf;
    }

    /**
     * A Bind naming {@code statement} instead: the new header and names, then the original
     * parameter bytes. Up to {@link #BIND_COPY_MAX} of them are copied into the one new buffer;
     * larger ones follow as a retained slice (no copy of what may be large values), which costs
     * a composite buffer and its parts and a write of two pieces.
     */
    public static ByteBuf bind(ByteBufAllocator alloc, String portal, String statement, ByteBuf parameters) {
        int head = 7 + portal.length() + statement.length();
        int rest = parameters.readableBytes();
        boolean copy = rest <= BIND_COPY_MAX;
        ByteBuf out = alloc.buffer(copy ? head + rest : head);
        out.writeByte('B');
        out.writeInt(head - 1 + rest);
        latin1(out, portal);
        latin1(out, statement);
        if (copy) {
            return out.writeBytes(parameters, parameters.readerIndex(), rest);
        }
        CompositeByteBuf joined = alloc.compositeBuffer(2);
        joined.addComponents(true, out, parameters.retain());
        return joined;
    }

    /** Describe or Close ({@code type} 'D' or 'C') of a statement ('S') or portal ('P'). */
    public static ByteBuf describeOrClose(ByteBufAllocator alloc, char type, char what, String name) {
        ByteBuf buf = alloc.buffer(7 + name.length());
        int at = Wire.begin(buf, type);
        buf.writeByte(what);
        latin1(buf, name);
        Wire.end(buf, at);
        return buf;
    }

    /** A Query whose text is written byte for byte (text read with {@link #firstString}). */
    public static ByteBuf query(ByteBufAllocator alloc, String sql) {
        ByteBuf buf = alloc.buffer(6 + sql.length());
        int at = Wire.begin(buf, 'Q');
        latin1(buf, sql);
        Wire.end(buf, at);
        return buf;
    }

    /** A message with no body: ParseComplete '1', BindComplete '2', CloseComplete '3'. */
    public static ByteBuf empty(ByteBufAllocator alloc, char type) {
        return alloc.buffer(5).writeByte(type).writeInt(4);
    }

    /**
     * A Parse that names its statement but whose text or parameter types are cut short (no NUL
     * after the text, fewer bytes than its parameter count says): PgBouncer 1.25 parses such a
     * Parse whole before it registers the name, and closes the client with "broken Parse
     * packet". False for an unnamed one and for one whose name lacks its NUL (refused earlier,
     * with PgBouncer's other words). Reads in place.
     */
    public static boolean brokenNamedParse(Frame parse) {
        ByteBuf b = parse.buffer();
        int end = parse.end();
        int from = parse.bodyStart();
        if (from < end && b.getByte(from) == 0) {
            return false; // unnamed, as most are: spared indexOf's checks
        }
        int nameEnd = b.indexOf(from, end, (byte) 0);
        if (nameEnd < 0) {
            return false; // the name lacks its NUL
        }
        int textEnd = b.indexOf(nameEnd + 1, end, (byte) 0);
        if (textEnd < 0 || end - (textEnd + 1) < 2) {
            return true;
        }
        int types = b.getUnsignedShort(textEnd + 1);
        return end - (textEnd + 3) < 4L * types;
    }

    /**
     * The C string that starts a message's body (an Execute's portal, a CommandComplete's tag),
     * read in place: no slice, and {@code last} itself when the bytes spell it again, as they do
     * for a session that runs the same statements over and over, so no new String either.
     */
    public static String firstString(Frame frame, char type, String last) {
        return stringAt(frame, frame.bodyStart(), type, last);
    }

    /**
     * The C string at index {@code from} of {@code frame}'s buffer, read in place as {@link
     * #firstString} reads the first. Read as ISO-8859-1, it spans one byte per char: the next
     * field starts at {@code from + s.length() + 1}.
     */
    public static String stringAt(Frame frame, int from, char type, String last) {
        ByteBuf b = frame.buffer();
        return stringAt(b, from, nulFrom(b, from, frame.end(), type), last);
    }

    /** Where the C string at {@code from} ends: its NUL, which a well-formed message has. */
    private static int nulFrom(ByteBuf b, int from, int to, char type) {
        int end = b.indexOf(from, to, (byte) 0);
        if (end < 0) {
            throw new ProtocolException("invalid message format in '" + type + "' message");
        }
        return end;
    }

    /**
     * The bytes from {@code from} to {@code end} as ISO-8859-1: "" for none (the unnamed statement
     * and portal, which most drivers use), {@code last} when they spell it, else a new String.
     */
    private static String stringAt(ByteBuf b, int from, int end, String last) {
        int len = end - from;
        if (len == 0) {
            return "";
        }
        if (last != null && last.length() == len && spells(b, from, last)) {
            return last;
        }
        return b.toString(from, len, StandardCharsets.ISO_8859_1);
    }

    /**
     * Eight bytes a read where it can: each read of a pooled buffer passes several bounds and
     * index checks, and "SELECT 1", the tag of most answers, is eight bytes.
     */
    private static boolean spells(ByteBuf b, int from, String s) {
        int n = s.length();
        int i = 0;
        for (; n - i >= 8; i += 8) {
            long packed = 0;
            for (int k = i; k < i + 8; k++) {
                packed = packed << 8 | (s.charAt(k) & 0xff);
            }
            if (b.getLong(from + i) != packed) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (b.getByte(from + i) != (byte) s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static void latin1(ByteBuf buf, String s) {
        buf.writeCharSequence(s, StandardCharsets.ISO_8859_1);
        buf.writeByte(0);
    }
}
