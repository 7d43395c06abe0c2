package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** A frame decoder with a {@link FrameReader} hands it the frames instead of the pipeline. */
class FrameReaderTest {
    /** What reached the handler behind the decoder, in order. */
    private final List<String> behind = new ArrayList<>();
    private final List<Throwable> errors = new ArrayList<>();

    private final ChannelInboundHandlerAdapter recorder = new ChannelInboundHandlerAdapter() {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            behind.add("down the pipeline: " + msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            behind.add("error");
            errors.add(cause);
        }
    };

    private static ByteBuf message(char type, int bodySize) {
        ByteBuf b = Unpooled.buffer(5 + bodySize);
        b.writeByte(type).writeInt(4 + bodySize).writeZero(bodySize);
        return b;
    }

    @Test
    void theFramesOfOneReadGoToTheReaderEachHoldingTheBuffer() {
        List<Frame> read = new ArrayList<>();
        var ch = new EmbeddedChannel(new FrameDecoder(1 << 20, 0, "Dd", read::add), recorder);
        ch.writeInbound(Unpooled.wrappedBuffer(message('C', 3), message('D', 8), message('D', 8), message('Z', 1)));
        assertEquals(List.of(), behind, "nothing went down the pipeline");
        assertEquals(List.of('C', 'D', 'Z'), read.stream().map(f -> (char) f.type()).toList(), "the DataRows as one run");
        assertEquals(26, read.get(1).length());
        read.get(0).release();
        read.get(1).release();
        assertEquals('Z', read.get(2).buffer().getByte(read.get(2).start()), "the last frame's bytes are still held");
        read.get(2).release();
        ch.finishAndReleaseAll();
    }

    @Test
    void aReaderThatFailsIsToldAndTheNextFrameIsStillRead() {
        List<Frame> read = new ArrayList<>();
        FrameReader failsOnce = f -> {
            read.add(f);
            f.release();
            if (read.size() == 1) {
                throw new IllegalStateException("reader failed");
            }
        };
        var ch = new EmbeddedChannel(new FrameDecoder(1 << 20, 0, "", failsOnce), recorder);
        ch.writeInbound(Unpooled.wrappedBuffer(message('C', 3), message('Z', 1)));
        assertEquals(2, read.size());
        assertEquals(List.of("error"), behind);
        assertEquals("reader failed", errors.get(0).getMessage());
        ch.finishAndReleaseAll();
    }

    @Test
    void framesBeforeABadHeaderAreReadBeforeTheRefusal() {
        var ch = new EmbeddedChannel(new FrameDecoder(1 << 20, 0, "", f -> {
            behind.add("read " + (char) f.type());
            f.release();
        }), recorder);
        ByteBuf bad = Unpooled.buffer().writeByte('Q').writeInt(2);
        ch.writeInbound(Unpooled.wrappedBuffer(message('C', 3), message('Z', 1), bad));
        assertEquals(List.of("read C", "read Z", "error"), behind);
        assertInstanceOf(DecoderException.class, errors.get(0));
        assertInstanceOf(ProtocolException.class, errors.get(0).getCause());
        ch.finishAndReleaseAll();
    }
}
