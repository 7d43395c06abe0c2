package io.sluice.proto.codec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.StartupPacket;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the packets a client sends before the message stream (StartupMessage, SSLRequest,
 * GSSENCRequest, CancelRequest), in arbitrary chunks: each packet decodes to a {@link StartupPacket}
 * or is refused with a {@link ProtocolException}; nothing else may escape, and a startup packet's
 * parameters are never more than its bytes could hold.
 */
class StartupDecoderFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void packets(FuzzedDataProvider data) {
        int limit = data.consumeInt(8, 70_000);
        int[] cuts = Feed.cuts(data, 4096);
        Feed.<StartupPacket>run(new StartupDecoder(limit, Integer.MAX_VALUE), data.consumeRemainingAsBytes(), cuts, p -> {
            if (p instanceof StartupPacket.Startup s) {
                assertThat(s.parameters().size()).isLessThanOrEqualTo(limit / 2);
                s.user();
                s.database();
            }
        });
    }
}
