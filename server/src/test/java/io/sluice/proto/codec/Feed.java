package io.sluice.proto.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.sluice.proto.ProtocolException;

import java.util.function.Consumer;

/**
 * Feeds fuzz input to a decoder the way a socket would, in chunks whose sizes the fuzzer picks,
 * and hands on each decoded message. A {@link ProtocolException} (the decoders' declared refusal)
 * ends the feed quietly, on any read or at the close; any other exception escapes.
 */
final class Feed {
    private Feed() {
    }

    /** Chunk sizes taken from {@code data}; the rest of {@code data} is then the input. */
    static int[] cuts(FuzzedDataProvider data, int maxChunk) {
        int[] cuts = new int[data.consumeInt(0, 8)];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = data.consumeInt(0, maxChunk);
        }
        return cuts;
    }

    static <T> void run(ChannelHandler decoder, byte[] input, int[] cuts, Consumer<T> each) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int from = 0;
        try {
            for (int i = 0; i <= cuts.length && from < input.length; i++) {
                int to = i == cuts.length ? input.length : Math.min(input.length, from + cuts[i]);
                // a copy: the decoder compacts its buffer in place, which would rewrite the input
                ch.writeInbound(Unpooled.copiedBuffer(input, from, to - from));
                from = to;
                T m;
                while ((m = ch.readInbound()) != null) {
                    each.accept(m);
                }
            }
            ch.finishAndReleaseAll();
        } catch (DecoderException e) {
            if (!(e.getCause() instanceof ProtocolException)) {
                throw e;
            }
            close(ch);
        }
    }

    private static void close(EmbeddedChannel ch) {
        try {
            ch.finishAndReleaseAll();
        } catch (DecoderException e) {
            if (!(e.getCause() instanceof ProtocolException)) {
                throw e;
            }
        }
    }
}
