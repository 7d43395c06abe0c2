package io.sluice.proto.codec;

import io.sluice.proto.Frame;

/** Where a relay passes frames on to one channel ({@link RunJoiner#sinkFor}); takes ownership. */
@FunctionalInterface
public interface FrameSink {
    void relay(Frame f);
}
