package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;

import java.util.List;

/**
 * Splits the typed message stream into {@link Frame}s (retained slices, no copy). Rejects lengths
 * below 4 and packets above {@code max_packet_size}.
 *
 * <p>A message of a type the pooler only relays ({@code relayOnlyTypes}) that is larger than
 * {@link #WHOLE_LIMIT} is passed on in pieces as its bytes arrive, so a 1 GB row or a huge
 * CopyData is never held whole: a first frame with its type and header, then
 * {@link Frame#CONTINUATION} frames.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /** Messages up to this size (header included) are always assembled whole. */
    public static final int WHOLE_LIMIT = 64 * 1024;

    private volatile long maxPacketSize;
    private final String relayOnlyTypes;
    /** Bytes of a message being passed on in pieces that have not arrived yet. */
    private long remaining;

    /** @param relayOnlyTypes message types that may be passed on in pieces, e.g. "Dd" */
    public FrameDecoder(long maxPacketSize, String relayOnlyTypes) {
        this.maxPacketSize = maxPacketSize;
        this.relayOnlyTypes = relayOnlyTypes;
    }

    public void maxPacketSize(long value) {
        this.maxPacketSize = value;
    }

    /** Up to 8 header bytes in hex, as PgBouncer prints them in "bad packet header". */
    static String headerHex(ByteBuf in) {
        return io.netty.buffer.ByteBufUtil.hexDump(in, in.readerIndex(), Math.min(8, in.readableBytes()));
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (remaining > 0 && in.isReadable()) {
            int n = (int) Math.min(remaining, in.readableBytes());
            out.add(new Frame(Frame.CONTINUATION, in.readRetainedSlice(n)));
            remaining -= n;
        }
        while (in.readableBytes() >= 5) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int len = in.getInt(start + 1);
            if (len < 4 || (long) len + 1 > maxPacketSize) {
                String header = headerHex(in);
                in.skipBytes(in.readableBytes());
                throw new ProtocolException("bad packet header: '" + header + "'");
            }
            if (in.readableBytes() < len + 1) {
                if (len + 1 > WHOLE_LIMIT && relayOnlyTypes.indexOf(type) >= 0) {
                    int n = in.readableBytes();
                    out.add(new Frame(type, in.readRetainedSlice(n)));
                    remaining = len + 1L - n;
                }
                return;
            }
            out.add(new Frame(type, in.readRetainedSlice(len + 1)));
        }
    }
}
