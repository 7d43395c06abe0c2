package io.sluice.net;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Put first in a pipeline: runs {@code then} after every handler behind it has handled
 * channelInactive, so it sees the state they leave (a session already gone from its registry).
 * A close-future listener would run too early: Netty completes the close future before it fires
 * channelInactive.
 */
@ChannelHandler.Sharable
public final class AfterInactive extends ChannelInboundHandlerAdapter {
    private final Runnable then;

    public AfterInactive(Runnable then) {
        this.then = then;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            ctx.fireChannelInactive();
        } finally {
            then.run();
        }
    }
}
