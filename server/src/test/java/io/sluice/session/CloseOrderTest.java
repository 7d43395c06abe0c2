package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.sluice.config.PoolMode;
import io.sluice.proto.codec.Encoders;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 13: when a client is failed, "closing because" (and "pooler error") are in the log
 * before the ErrorResponse is handed to the channel, as PgBouncer orders them, so a script that
 * reads the log once its client has the error finds the reason.
 */
class CloseOrderTest {
    @Test
    void reasonIsLoggedBeforeTheErrorIsWritten() throws Exception {
        SessionHarness.Config config = new SessionHarness.Config();
        config.logDisconnections = true;
        config.logPoolerErrors = true;
        config.disablePqexec = true;
        SessionHarness.withLogFile(file -> {
            SessionHarness h = new SessionHarness(PoolMode.TRANSACTION, config);
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
        });
    }
}
