package io.sluice.proto.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;
import io.sluice.proto.Frame;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Frames, and slices, that lie side by side in one buffer go out as one write; anything else keeps its place
 * in the order of writes, and no reference to the read buffer is kept or lost.
 */
class RunJoinerTest {
    private EmbeddedChannel ch;
    private ChannelPromise relayed;
    private ByteBuf read;

    @BeforeEach
    void setUp() {
        ch = new EmbeddedChannel(new RunJoiner());
        relayed = new VoidChannelPromise(ch, false);
        read = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        read.writeCharSequence("PPPPBBBBEEEESSSS", StandardCharsets.US_ASCII);
    }

    @AfterEach
    void tearDown() {
        ch.finishAndReleaseAll();
        assertThat(read.refCnt()).as("the read buffer's own reference, and only that, is left").isEqualTo(1);
        read.release();
    }

    @Test
    void adjacentSlicesOfOneReadGoOutAsOneWrite() {
        for (int i = 0; i < 4; i++) {
            ch.write(read.retainedSlice(i * 4, 4), relayed);
        }
        ch.flush();
        assertThat(written()).containsExactly("PPPPBBBBEEEESSSS");
    }

    /** A read buffer the leak detector tracks comes wrapped, and each slice of it too. */
    @Test
    void slicesOfALeakTrackedBufferAreJoinedToo() {
        ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ByteBuf tracked;
        try {
            tracked = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        } finally {
            ResourceLeakDetector.setLevel(before);
        }
        tracked.writeCharSequence("PPPPBBBB", StandardCharsets.US_ASCII);
        ByteBuf probe = tracked.retainedSlice(0, 4);
        assertThat(probe.unwrap()).as("a slice under its own wrapper").isNotSameAs(tracked.unwrap());
        probe.release();
        ch.write(tracked.retainedSlice(0, 4), relayed);
        ch.write(tracked.retainedSlice(4, 4), relayed);
        ch.flush();
        assertThat(written()).containsExactly("PPPPBBBB");
        assertThat(tracked.refCnt()).isEqualTo(1);
        tracked.release();
    }

    @Test
    void aGapOrAnotherBufferStartsANewRun() {
        ch.write(read.retainedSlice(0, 4), relayed);
        ch.write(read.retainedSlice(8, 4), relayed); // the Bind was dropped: not adjacent
        ch.write(read.retainedSlice(12, 4), relayed);
        ch.write(Unpooled.copiedBuffer("own", StandardCharsets.US_ASCII), relayed); // a message Sluice made
        ch.write(read.retainedSlice(4, 4), relayed); // before the run's start: not adjacent either
        ch.flush();
        assertThat(written()).containsExactly("PPPP", "EEEESSSS", "own", "BBBB");
    }

    @Test
    void aWriteWithAPromiseKeepsItsPlace() {
        ch.write(read.retainedSlice(0, 4), relayed);
        ch.write(read.retainedSlice(4, 4), relayed);
        ChannelPromise p = ch.newPromise();
        ch.write(Unpooled.copiedBuffer("err", StandardCharsets.US_ASCII), p);
        ch.write(read.retainedSlice(8, 4), relayed);
        ch.flush();
        assertThat(written()).containsExactly("PPPPBBBB", "err", "EEEE");
        assertThat(p.isSuccess()).isTrue();
    }

    @Test
    void nothingGoesOutBeforeTheFlush() {
        ch.write(read.retainedSlice(0, 4), relayed);
        ch.write(read.retainedSlice(4, 4), relayed);
        assertThat(written()).isEmpty();
        ch.flush();
        assertThat(written()).containsExactly("PPPPBBBB");
    }

    @Test
    void closingWithAPendingRunReleasesIt() {
        ch.write(read.retainedSlice(0, 4), relayed);
        ch.write(read.retainedSlice(4, 4), relayed);
        ch.close();
        assertThat(read.refCnt()).isEqualTo(1);
    }

    /** A frame of {@code n} bytes of the read buffer from {@code at}, as the frame decoder makes it. */
    private Frame frame(int at, int n) {
        return new Frame((byte) read.getByte(at), read.retain(), at, n);
    }

    @Test
    void framesSideBySideGoOutAsOneWrite() {
        for (int i = 0; i < 4; i++) {
            ch.write(frame(i * 4, 4), relayed);
        }
        assertThat(read.refCnt()).as("the pending run holds its four frames' references").isEqualTo(5);
        ch.flush();
        assertThat(read.refCnt()).as("the written run holds one").isEqualTo(2);
        assertThat(written()).containsExactly("PPPPBBBBEEEESSSS");
    }

    @Test
    void framesKeepTheOrderOfWritesWithAnythingElse() {
        ch.write(frame(0, 4), relayed);
        ch.write(frame(8, 4), relayed); // the Bind was dropped: not side by side
        ch.write(Unpooled.copiedBuffer("own", StandardCharsets.US_ASCII), relayed); // a message Sluice made
        ch.write(frame(12, 4), relayed);
        ch.write(read.retainedSlice(0, 4), relayed); // a slice: a run of its own
        ch.write(frame(4, 4), relayed);
        ChannelPromise p = ch.newPromise();
        ch.write(frame(8, 4), p); // with a promise: written alone, in its place
        ch.write(frame(12, 4), relayed);
        ch.flush();
        assertThat(written()).containsExactly("PPPP", "EEEE", "own", "SSSS", "PPPP", "BBBB", "EEEE", "SSSS");
        assertThat(p.isSuccess()).isTrue();
    }

    @Test
    void aFrameOfAWholeBufferGoesOutAsThatBuffer() {
        ByteBuf own = Unpooled.copiedBuffer("Z", StandardCharsets.US_ASCII);
        ch.write(new Frame((byte) 'Z', own), relayed);
        ch.flush();
        ByteBuf out = ch.readOutbound();
        assertThat(out).isSameAs(own);
        out.release();
    }

    @Test
    void closingWithPendingFramesReleasesThem() {
        ch.write(frame(0, 4), relayed);
        ch.write(frame(4, 4), relayed);
        assertThat(read.refCnt()).as("the run holds both frames' references").isEqualTo(3);
        ch.close();
        assertThat(read.refCnt()).isEqualTo(1);
    }

    @Test
    void framesRelayedDirectlyJoinTheRunAndKeepTheirPlaceAmongWrites() {
        ch.pipeline().addLast(new ChannelDuplexHandler()); // the session's place
        FrameSink sink = RunJoiner.sinkFor(ch.pipeline().lastContext());
        assertThat(sink).isInstanceOf(RunJoiner.class);
        sink.relay(frame(0, 4));
        sink.relay(frame(4, 4));
        ch.write(Unpooled.copiedBuffer("X", StandardCharsets.US_ASCII)); // a message Sluice made
        sink.relay(frame(8, 4));
        ch.pipeline().lastContext().write(frame(12, 4), relayed);
        ch.flush();
        assertThat(written()).containsExactly("PPPPBBBB", "X", "EEEESSSS");
    }

    @Test
    void aFrameRelayedAfterTheJoinerIsGoneIsReleased() {
        ch.pipeline().addLast(new ChannelDuplexHandler());
        FrameSink sink = RunJoiner.sinkFor(ch.pipeline().lastContext());
        ch.pipeline().remove(RunJoiner.class);
        sink.relay(frame(0, 4));
        assertThat(read.refCnt()).isEqualTo(1);
    }

    @Test
    void withoutAJoinerFramesAreWrittenFromTheHandler() {
        EmbeddedChannel plain = new EmbeddedChannel(new ChannelDuplexHandler());
        Frame f = frame(0, 4);
        RunJoiner.sinkFor(plain.pipeline().firstContext()).relay(f);
        plain.flush();
        assertThat((Object) plain.readOutbound()).isSameAs(f);
        f.release();
        plain.finishAndReleaseAll();
    }

    private List<String> written() {
        List<String> out = new ArrayList<>();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.add(b.toString(StandardCharsets.US_ASCII));
            b.release();
        }
        return out;
    }
}
