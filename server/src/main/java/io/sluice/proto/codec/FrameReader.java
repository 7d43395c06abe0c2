package io.sluice.proto.codec;

import io.sluice.proto.Frame;

/**
 * Who reads a channel's frames straight from its {@link FrameDecoder}, by a direct call rather
 * than one trip through Netty's pipeline per message; takes ownership of each frame.
 */
@FunctionalInterface
public interface FrameReader {
    void frameRead(Frame frame);
}
