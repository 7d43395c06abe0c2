package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrameDecoderTest {
    private static ByteBuf message(char type, int bodySize) {
        ByteBuf b = Unpooled.buffer(5 + bodySize);
        b.writeByte(type).writeInt(4 + bodySize);
        for (int i = 0; i < bodySize; i++) {
            b.writeByte(i);
        }
        return b;
    }

    /** Feeds {@code bytes} in reads of {@code chunk} bytes; returns the frames decoded. */
    private static List<Frame> feed(EmbeddedChannel ch, ByteBuf bytes, int chunk) {
        List<Frame> frames = new ArrayList<>();
        while (bytes.isReadable()) {
            ch.writeInbound(bytes.readRetainedSlice(Math.min(chunk, bytes.readableBytes())));
            Frame f;
            while ((f = ch.readInbound()) != null) {
                frames.add(f);
            }
        }
        bytes.release();
        return frames;
    }

    @Test
    void aLargeRelayOnlyMessageIsPassedOnInPiecesAsItArrives() {
        var ch = new EmbeddedChannel(new FrameDecoder(Integer.MAX_VALUE, "Dd"));
        ByteBuf original = message('D', 1 << 20);
        ByteBuf expected = original.copy();
        List<Frame> frames = feed(ch, Unpooled.wrappedBuffer(original, message('Z', 1)), 16 * 1024);
        assertEquals('D', frames.get(0).type());
        assertEquals('Z', frames.get(frames.size() - 1).type());
        ByteBuf joined = Unpooled.buffer();
        for (Frame f : frames.subList(0, frames.size() - 1)) {
            assertTrue(f.length() <= 16 * 1024, "no piece is larger than one read: " + f);
            if (f != frames.get(0)) {
                assertEquals(Frame.CONTINUATION, f.type());
            }
            joined.writeBytes(f.bytes(), f.bytes().readerIndex(), f.length());
        }
        assertEquals(expected, joined, "the pieces are the message, byte for byte");
        frames.forEach(Frame::release);
        expected.release();
        joined.release();
    }

    @Test
    void messagesThePoolerReadsAreAlwaysWhole() {
        var ch = new EmbeddedChannel(new FrameDecoder(Integer.MAX_VALUE, "Dd"));
        List<Frame> frames = feed(ch, Unpooled.wrappedBuffer(message('E', 200_000), message('D', 1000)), 4096);
        assertEquals(2, frames.size());
        assertEquals(200_005, frames.get(0).length());
        assertEquals(1005, frames.get(1).length(), "small relay-only messages stay whole too");
        frames.forEach(Frame::release);
    }

    @Test
    void bytesAlreadyPassedOnAreDroppedEvenWhileTheReaderLagsBehind() {
        var ch = new EmbeddedChannel(new FrameDecoder(Integer.MAX_VALUE, "Dd"));
        ByteBuf stream = Unpooled.buffer();
        for (int i = 0; i < 20_000; i++) {
            stream.writeBytes(message('D', 1000));
        }
        List<Frame> unwritten = new ArrayList<>();
        int largestCumulation = 0;
        while (stream.isReadable()) {
            // the client took the previous read's frames only after that read had ended (its
            // readComplete saw them unwritten), but before the next read came in
            unwritten.forEach(Frame::release);
            unwritten.clear();
            ch.writeInbound(Unpooled.copiedBuffer(stream.readSlice(Math.min(65_536, stream.readableBytes()))));
            Frame f;
            while ((f = ch.readInbound()) != null) {
                largestCumulation = Math.max(largestCumulation, f.bytes().unwrap().capacity());
                unwritten.add(f);
            }
        }
        unwritten.forEach(Frame::release);
        stream.release();
        assertTrue(largestCumulation < 1 << 20, "20 MB went through; the cumulation grew to " + largestCumulation);
    }
    @Test
    void relayOnlyMessagesSideBySideBecomeOneFrameThatEndsAtAnotherType() {
        var ch = new EmbeddedChannel(new FrameDecoder(Integer.MAX_VALUE, "Dd"));
        ByteBuf stream = Unpooled.wrappedBuffer(message('T', 30), message('D', 40), message('D', 0),
                message('D', 300), message('C', 10), message('D', 20), message('Z', 1));
        List<Frame> frames = feed(ch, stream, Integer.MAX_VALUE);
        assertEquals("TDCDZ", types(frames));
        assertEquals(45 + 5 + 305, frames.get(1).length(), "three DataRows, one frame");
        assertEquals(25, frames.get(3).length(), "a lone DataRow stays a frame of its own");
        frames.forEach(Frame::release);
    }

    @Test
    void aRunEndsBeforeAMessageNotWhollyReadWhichComesWhenItsBytesDo() {
        var ch = new EmbeddedChannel(new FrameDecoder(Integer.MAX_VALUE, "Dd"));
        ByteBuf stream = Unpooled.wrappedBuffer(message('d', 10), message('d', 10), message('d', 100),
                message('c', 0));
        List<Frame> frames = feed(ch, stream, 60); // the third CopyData is cut by the first read's end
        assertEquals(List.of(30, 105, 5), frames.stream().map(Frame::length).toList());
        assertEquals("ddc", types(frames));
        frames.forEach(Frame::release);
    }

    @Test
    void aBadHeaderAfterARunIsRefusedAfterTheRunIsPassedOn() {
        var ch = new EmbeddedChannel(new FrameDecoder(1000, "Dd"));
        ByteBuf tooLarge = Unpooled.buffer().writeByte('D').writeInt(5000);
        ByteBuf stream = Unpooled.wrappedBuffer(message('D', 10), message('D', 10), tooLarge);
        Throwable refused = assertThrows(Exception.class, () -> ch.writeInbound(stream)).getCause();
        assertTrue(refused instanceof ProtocolException && refused.getMessage().startsWith("bad packet header"),
                String.valueOf(refused));
        Frame run = ch.readInbound();
        assertEquals(30, run.length(), "the two DataRows before it went on");
        run.release();
    }

    @Test
    void aRunOfRowsIsReadRowByRow() {
        Frame run = new Frame((byte) 'D', Unpooled.wrappedBuffer(dataRow("1", "a"), dataRow("2", null)));
        assertEquals(List.of(List.of("1", "a"), Arrays.asList("2", null)), BackendDecoding.dataRows(run));
        ByteBuf oneByteMore = Unpooled.wrappedBuffer(new byte[] {'D'});
        Frame cut = new Frame((byte) 'D', Unpooled.wrappedBuffer(dataRow("1", "a"), oneByteMore));
        assertThrows(ProtocolException.class, () -> BackendDecoding.dataRows(cut));
        run.release();
        cut.release();
    }

    private static ByteBuf dataRow(String... values) {
        ByteBuf body = Unpooled.buffer().writeShort(values.length);
        for (String v : values) {
            if (v == null) {
                body.writeInt(-1);
            } else {
                body.writeInt(v.length()).writeCharSequence(v, StandardCharsets.UTF_8);
            }
        }
        ByteBuf m = Unpooled.buffer().writeByte('D').writeInt(4 + body.readableBytes()).writeBytes(body);
        body.release();
        return m;
    }

    private static String types(List<Frame> frames) {
        StringBuilder b = new StringBuilder();
        frames.forEach(f -> b.append((char) f.type()));
        return b.toString();
    }
}
