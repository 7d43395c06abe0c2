package io.sluice.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.ssl.SslHandler;

/** Closing a connection without losing what was already written to it. Event loop only. */
public final class Closes {
    private Closes() {
    }

    /**
     * Closes {@code channel} once the bytes queued on it are written: at once when there are none
     * (the usual end, a Terminate after the last reply went out), since waiting on an empty write
     * costs io_uring a zero-byte send and a loop turn per connection; else after an empty write
     * that follows them out. A TLS layer may hold bytes of its own, so TLS always waits.
     */
    public static void afterQueued(Channel channel) {
        ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
        boolean nothingQueued = out != null && out.isEmpty() && out.totalPendingWriteBytes() == 0
                && channel.pipeline().get(SslHandler.class) == null;
        if (nothingQueued) {
            channel.close();
        } else {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
