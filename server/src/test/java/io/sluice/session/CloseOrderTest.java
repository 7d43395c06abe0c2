package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.sluice.config.PoolMode;
import io.sluice.log.Log;
import io.sluice.proto.codec.Encoders;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 13: when a client is failed, "closing because" (and "pooler error") are in the log
 * before the ErrorResponse is handed to the channel, as PgBouncer orders them, so a script that
 * reads the log once its client has the error finds the reason.
 */
class CloseOrderTest {
    @Test
    void reasonIsLoggedBeforeTheErrorIsWritten() throws Exception {
        Path file = Files.createTempFile("sluice-close-order", ".log");
        Log.global().reopen(file);
        try {
            SessionHarness h = new SessionHarness(PoolMode.TRANSACTION) {
                @Override
                public SessionSettings settings() {
                    return new SessionSettings(io.sluice.auth.AuthMethod.TRUST, java.util.Optional.empty(), Set.of(), Set.of(), 100, 0, Set.of(), Set.of("application_name"),
                            false, true, true, true, false, Integer.MAX_VALUE, 6432, 0, false);
                }
            };
            List<String> logAtErrorWrite = new ArrayList<>();
            h.client.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
                    if (msg instanceof ByteBuf b && b.isReadable() && b.getByte(b.readerIndex()) == 'E') {
                        logAtErrorWrite.add(Files.readString(file));
                    }
                    super.write(ctx, msg, promise);
                }
            });
            h.clientSends(Encoders.query(SessionHarness.ALLOC, "select 1"));
            assertThat(logAtErrorWrite).hasSize(1);
            assertThat(logAtErrorWrite.get(0)).contains("closing because: PQexec disallowed (age=")
                    .contains("pooler error: PQexec disallowed");
            assertThat(SessionHarness.drain(h.client)).endsWith("E");
            assertThat(h.client.isActive()).isFalse();
        } finally {
            Log.global().reopen(null);
            Files.deleteIfExists(file);
        }
    }
}
