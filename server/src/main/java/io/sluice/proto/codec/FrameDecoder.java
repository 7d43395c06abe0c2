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
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private volatile long maxPacketSize;

    public FrameDecoder(long maxPacketSize) {
        this.maxPacketSize = maxPacketSize;
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
                return;
            }
            out.add(new Frame(type, in.readRetainedSlice(len + 1)));
        }
    }
}
