package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
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
    /** Listeners in their pause; touched on the listeners' loop only. */
    private final Set<Channel> paused = new HashSet<>();

    AcceptFailures(Consumer<String> errorLog) {
        this.errorLog = errorLog;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        Channel listener = ctx.channel();
        if (!paused.add(listener)) {
            return; // the accept that failed before the pause took hold: one line per pause
        }
        errorLog.accept("accept() failed: " + reason(cause));
        // auto-read goes off once this failure has been handled: io_uring re-arms a multishot
        // accept at the end of its handling whatever auto-read says, and turning it off later
        // cancels that accept
        listener.eventLoop().execute(() -> listener.config().setAutoRead(false));
        listener.eventLoop().schedule(() -> {
            paused.remove(listener);
            if (listener.isOpen()) {
                listener.config().setAutoRead(true);
            }
        }, PAUSE_SECONDS, TimeUnit.SECONDS);
    }

    /** The strerror part: native epoll says "accept(..) failed with error(-24): Too many open files". */
    static String reason(Throwable cause) {
        String m = String.valueOf(cause.getMessage());
        int at = m.lastIndexOf(": ");
        return at >= 0 ? m.substring(at + 2) : m;
    }
}
