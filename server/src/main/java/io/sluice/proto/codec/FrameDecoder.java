package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;

import java.util.List;

/**
 * Splits the typed message stream into whole {@link Frame}s (retained slices, no copy).
 * Rejects lengths below 4 and packets above {@code max_packet_size}.
 *
 * <p>A client's decoder starts in the login phase, where a message must fit PgBouncer's
 * {@code pkt_buf} as the startup packet must: a login needs a few hundred bytes, and an
 * unauthenticated peer must not make the pooler hold more. An oversized message is refused as
 * soon as its header is read, before any of its body is buffered; {@link #loginDone()} lifts
 * the limit to {@code max_packet_size}. After any refusal the rest of the input is dropped
 * unread while the session closes the connection.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private volatile long maxPacketSize;
    /** Largest whole message (type byte included) before login completes; 0 once logged in. */
    private int loginLimit;
    private boolean refused;

    /** A decoder with no login phase (server connections). */
    public FrameDecoder(long maxPacketSize) {
        this(maxPacketSize, 0);
    }

    /**
     * @param loginLimit largest whole message accepted until {@link #loginDone()} (PgBouncer's
     *                   {@code pkt_buf}); 0 for none
     */
    public FrameDecoder(long maxPacketSize, int loginLimit) {
        this.maxPacketSize = maxPacketSize;
        this.loginLimit = loginLimit;
    }

    public void maxPacketSize(long value) {
        this.maxPacketSize = value;
    }

    /** The client is authenticated: from the next message on only {@code max_packet_size} applies. */
    public void loginDone() {
        loginLimit = 0;
    }

    /** Up to 8 header bytes in hex, as PgBouncer prints them in "bad packet header". */
    static String headerHex(ByteBuf in) {
        return io.netty.buffer.ByteBufUtil.hexDump(in, in.readerIndex(), Math.min(8, in.readableBytes()));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= 5) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int len = in.getInt(start + 1);
            if (len < 4 || (long) len + 1 > maxPacketSize) {
                throw refuse(in, "bad packet header: '" + headerHex(in) + "'");
            }
            if (loginLimit > 0 && (long) len + 1 > loginLimit) {
                throw refuse(in, StartupDecoder.PARTIAL_PACKET);
            }
            if (in.readableBytes() < len + 1) {
                return;
            }
            out.add(new Frame(type, in.readRetainedSlice(len + 1)));
            if (loginLimit > 0) {
                // one message at a time while logging in: handling it may end the login phase,
                // and the next header must be judged by the limit that then applies
                return;
            }
        }
    }

    private ProtocolException refuse(ByteBuf in, String message) {
        refused = true;
        in.skipBytes(in.readableBytes());
        return new ProtocolException(message);
    }
}
