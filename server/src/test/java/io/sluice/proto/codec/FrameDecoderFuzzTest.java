package io.sluice.proto.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.sluice.proto.Frame;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the typed-message framing as a client or server would feed it, in arbitrary chunks:
 * the only failure allowed is a {@code ProtocolException}; the frames handed on must be exactly
 * the bytes received, in order, each whole message carrying its own declared length, and every
 * decoder the pooler runs on a frame (login, console, extended protocol, server replies) may
 * refuse it only with a {@code ProtocolException}. Regression inputs live in
 * src/test/resources/io/sluice/proto/codec/FrameDecoderFuzzTestInputs; scripts/fuzz.sh runs it
 * for long.
 */
class FrameDecoderFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void frames(FuzzedDataProvider data) {
        long maxPacket = data.consumeBoolean() ? Integer.MAX_VALUE : data.consumeInt(5, 1 << 20);
        int loginLimit = data.consumeBoolean() ? 0 : data.consumeInt(5, 8192);
        String relayOnly = data.pickValue(new String[] {"", "d", "Dd"});
        int loginDoneAfter = data.consumeInt(0, 8);
        int[] cuts = Feed.cuts(data, 200_000);
        byte[] input = data.consumeRemainingAsBytes();
        FrameDecoder decoder = new FrameDecoder(maxPacket, loginLimit, relayOnly, null);
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        int[] frames = {0};
        Feed.<Frame>run(decoder, input, cuts, f -> {
            try {
                check(f, seen);
            } finally {
                f.release();
            }
            if (++frames[0] == loginDoneAfter) {
                decoder.loginDone();
            }
        });
        byte[] out = seen.toByteArray();
        assertThat(Arrays.equals(out, 0, out.length, input, 0, out.length)).as("frames are the input, in order")
                .isTrue();
    }

    private static void check(Frame f, ByteArrayOutputStream seen) {
        ByteBuf bytes = f.bytes();
        byte[] b = new byte[bytes.readableBytes()];
        bytes.getBytes(bytes.readerIndex(), b);
        seen.writeBytes(b);
        if (f.type() == Frame.CONTINUATION || b.length < 5) {
            return;
        }
        int declared = bytes.getInt(bytes.readerIndex() + 1);
        if (declared + 1 == b.length) {
            MessageDecoding.interpret(f);
        }
    }
}
