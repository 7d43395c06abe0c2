package io.sluice.runtime;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The last step of a stop: the event loop stops once the closes begun are done. io_uring finishes
 * a close on a later loop turn, and a loop stopped before that prints a rejected-task stack trace
 * per channel. A close that never completes is a bug, not a reason to hang: after
 * {@link #CLOSE_WAIT_SECONDS} the loop stops anyway.
 */
final class LoopShutdown {
    static final long CLOSE_WAIT_SECONDS = 2;

    private LoopShutdown() {
    }

    /**
     * On {@code loop}: stops {@code group} once {@code listenersClosed} is done and every channel of
     * {@code open} is closed, then completes {@code terminated} with {@code exitCode}.
     */
    static void afterCloses(EventLoopGroup group, EventLoop loop, CompletableFuture<Void> listenersClosed,
                            ChannelGroup open, CompletableFuture<Integer> terminated, int exitCode) {
        Runnable stopLoop = () -> group.shutdownGracefully(0, 200, TimeUnit.MILLISECONDS)
                .addListener(f -> terminated.complete(exitCode));
        var giveUp = loop.schedule(stopLoop, CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        CompletableFuture<Void> connectionsClosed = new CompletableFuture<>();
        open.newCloseFuture().addListener(f -> connectionsClosed.complete(null));
        CompletableFuture.allOf(listenersClosed, connectionsClosed).thenRunAsync(() -> {
            if (giveUp.cancel(false)) { // else the wait ran out and stopLoop already ran
                stopLoop.run();
            }
        }, loop);
    }
}
