package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.StartupPacket;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the length-prefixed packets a client sends before the typed message stream:
 * StartupMessage, SSLRequest, GSSENCRequest, CancelRequest. The session removes this decoder
 * once a StartupMessage or CancelRequest arrived.
 *
 * <p>Header rules as PgBouncer's {@code get_header}: a header starting with a zero byte is a
 * startup packet and is judged once its 8 bytes are in (the length field is 16 bits wide
 * there: its upper two bytes must be zero, else "bad packet header"); any other first byte is a
 * typed message's type, judged once its 5 header bytes are in, and passed on whole as
 * {@link StartupPacket.Typed} for the session to refuse. A packet must fit the {@code pkt_buf}
 * buffer whole, else "client sent partial pkt in startup phase". That is judged on the header
 * alone, so no more than {@code pkt_buf} bytes are held for an unauthenticated client; PgBouncer
 * also refuses a packet that fits but has not arrived whole in one read, Sluice waits for it.
 */
public final class StartupDecoder extends ByteToMessageDecoder {
    /** PgBouncer's words for a login-phase packet larger than its buffer. */
    public static final String PARTIAL_PACKET = "client sent partial pkt in startup phase";
    /** Widest length a startup packet header can carry in PgBouncer. */
    static final int MAX_HEADER_LENGTH = 0xffff;

    private final int packetLimit;
    private final long maxPacketSize;
    private boolean refused;

    /**
     * @param packetLimit largest whole packet accepted before login: PgBouncer's {@code pkt_buf}
     * @param maxPacketSize {@code max_packet_size}: a typed header announcing more is a bad header
     */
    public StartupDecoder(int packetLimit, long maxPacketSize) {
        this.packetLimit = packetLimit;
        this.maxPacketSize = maxPacketSize;
    }

    /** The login-phase limit, which the frame decoder that follows this one keeps applying. */
    public int packetLimit() {
        return packetLimit;
    }

    /**
     * Bytes received but not yet decoded. After an SSLRequest they were sent before the
     * client could have seen our answer: unencrypted, maybe injected (CVE-2021-23214).
     */
    public int buffered() {
        return actualReadableBytes();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (!in.isReadable()) {
            return;
        }
        if (in.getByte(in.readerIndex()) != 0) {
            typed(in, out);
            return;
        }
        if (in.readableBytes() < 8) {
            return;
        }
        int len = in.getInt(in.readerIndex());
        if (len < 8 || len > MAX_HEADER_LENGTH) {
            throw refuse(in, badHeader(in));
        }
        if (len > packetLimit) {
            throw refuse(in, PARTIAL_PACKET);
        }
        if (in.readableBytes() < len) {
            return;
        }
        ByteBuf packet = in.readSlice(len);
        packet.skipBytes(4);
        int code = packet.readInt();
        try {
            out.add(decodePacket(len, code, packet));
        } catch (ProtocolException e) {
            throw refuse(in, e.getMessage()); // and drop what follows, as for a bad header
        }
    }

    /** A typed message where a startup packet belongs: passed on whole, then nothing more is read. */
    private void typed(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 5) {
            return;
        }
        long total = in.getUnsignedInt(in.readerIndex() + 1) + 1;
        if (total < 5 || total > maxPacketSize) {
            throw refuse(in, badHeader(in));
        }
        if (total > packetLimit) {
            throw refuse(in, PARTIAL_PACKET);
        }
        if (in.readableBytes() < total) {
            return;
        }
        byte type = in.getByte(in.readerIndex());
        refused = true;
        in.skipBytes(in.readableBytes());
        out.add(new StartupPacket.Typed(type));
    }

    private static String badHeader(ByteBuf in) {
        return "bad packet header: '" + FrameDecoder.headerHex(in) + "'";
    }

    private ProtocolException refuse(ByteBuf in, String message) {
        refused = true;
        in.skipBytes(in.readableBytes());
        return new ProtocolException(message);
    }

    static StartupPacket decodePacket(int len, int code, ByteBuf body) {
        switch (code) {
            case StartupPacket.SSL_REQUEST_CODE:
                return new StartupPacket.SslRequest();
            case StartupPacket.GSSENC_REQUEST_CODE:
                return new StartupPacket.GssEncRequest();
            case StartupPacket.CANCEL_REQUEST_CODE:
                if (body.readableBytes() != 8) {
                    return new StartupPacket.BadCancel(); // its key must be exactly 8 bytes, as in PgBouncer
                }
                return new StartupPacket.CancelRequest(body.readInt(), body.readInt());
            default:
                break;
        }
        if (code >>> 16 != 3) {
            return new StartupPacket.Unsupported(len, code);
        }
        // as PgBouncer's decide_startup_pool: reading stops at the first string without its
        // terminator, and the pairs read so far are the startup parameters. The body is copied
        // out once and its strings cut from the copy: one copy per packet, not one per string.
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        Map<String, String> params = new LinkedHashMap<>();
        int at = 0;
        while (at < bytes.length) {
            int keyEnd = nul(bytes, at);
            if (keyEnd <= at) {
                break; // no terminator, or the empty key that ends the list
            }
            int valueEnd = nul(bytes, keyEnd + 1);
            if (valueEnd < 0) {
                break;
            }
            params.put(utf8(bytes, at, keyEnd), utf8(bytes, keyEnd + 1, valueEnd));
            at = valueEnd + 1;
        }
        return new StartupPacket.Startup(code, params);
    }

    private static int nul(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String utf8(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    static String readCString(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new ProtocolException("bad startup packet");
        }
        String s = buf.toString(buf.readerIndex(), end - buf.readerIndex(), StandardCharsets.UTF_8);
        buf.readerIndex(end + 1);
        return s;
    }
}
