package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;

import java.util.ArrayList;
import java.util.List;

/** What a pooler wrote to a client, decoded into backend messages, for tests that read it back. */
public final class DecodedReplies {
    private DecodedReplies() {
    }

    /** Every message in {@code bytes}, in order; releases them. */
    public static List<BackendMessage> of(ByteBuf bytes) {
        EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(1 << 20, ""));
        in.writeInbound(bytes);
        List<BackendMessage> all = new ArrayList<>();
        for (Frame f; (f = in.readInbound()) != null; ) {
            all.add(BackendDecoding.decode(f));
            f.release();
        }
        return all;
    }
}
