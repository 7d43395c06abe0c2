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

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= 5) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int len = in.getInt(start + 1);
            if (len < 4) {
                in.skipBytes(in.readableBytes());
                throw new ProtocolException("invalid packet length");
            }
            if ((long) len + 1 > maxPacketSize) {
                in.skipBytes(in.readableBytes());
                throw new ProtocolException("max_packet_size exceeded");
            }
            if (in.readableBytes() < len + 1) {
                return;
            }
            out.add(new Frame(type, in.readRetainedSlice(len + 1)));
        }
    }
}
