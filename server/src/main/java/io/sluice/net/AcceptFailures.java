package io.sluice.net;

import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A listening socket whose accept() failed, mostly for want of file descriptors (EMFILE,
 * ENFILE): one ERROR line in PgBouncer's words ({@code accept() failed: Too many open files}),
 * then no accepting for {@link #PAUSE_SECONDS}, as PgBouncer suspends its pooler for 5 s. Netty
 * would instead print a stack trace to stderr and retry after 1 s; the connections left in the
 * queue wait for the next accept, and the pooler keeps serving the clients it has.
 */
@ChannelHandler.Sharable
final class AcceptFailures extends ChannelInboundHandlerAdapter {
    /** PgBouncer's err_timeout: "probably fd limit, pointless to try often". */
    static final long PAUSE_SECONDS = 5;

    private final Consumer<String> errorLog;

    AcceptFailures(Consumer<String> errorLog) {
        this.errorLog = errorLog;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        errorLog.accept("accept() failed: " + reason(cause));
        ChannelConfig config = ctx.channel().config();
        if (config.isAutoRead()) {
            config.setAutoRead(false);
            ctx.channel().eventLoop().schedule(() -> {
                if (ctx.channel().isOpen()) {
                    config.setAutoRead(true);
                }
            }, PAUSE_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** The strerror part: native epoll says "accept(..) failed with error(-24): Too many open files". */
    static String reason(Throwable cause) {
        String m = String.valueOf(cause.getMessage());
        int at = m.lastIndexOf(": ");
        return at >= 0 ? m.substring(at + 2) : m;
    }
}
