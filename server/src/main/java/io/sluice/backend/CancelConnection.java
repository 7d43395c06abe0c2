package io.sluice.backend;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.ReferenceCountUtil;
import io.sluice.net.Transport;
import io.sluice.proto.codec.Encoders;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One CancelRequest on a connection of its own, to PostgreSQL or to a peer pooler: connect, send
 * the 16 bytes, wait for the other side to close (it has acted on the request by then). Event loop only.
 */
final class CancelConnection {
    private CancelConnection() {}

    /** A unix socket in {@code dir} for {@code port} (PgBouncer's {@code .s.PGSQL.<port>}), or TCP. */
    static SocketAddress address(boolean unix, String hostOrDir, int port) {
        return unix ? new DomainSocketAddress(hostOrDir + "/.s.PGSQL." + port) : new InetSocketAddress(hostOrDir, port);
    }

    /**
     * Sends {@code (pid, secret)} to {@code address}; {@code connected} runs with the channel once the
     * connection is up, {@code finish} once when it has closed, failed, or outlived {@code timeoutNanos}.
     */
    static void send(EventLoop loop, Transport transport, SocketAddress address, long timeoutNanos, int pid,
                     int secret, Consumer<Channel> connected, Runnable finish) {
        Runnable once = new Runnable() {
            private boolean ran;

            @Override
            public void run() {
                if (!ran) {
                    ran = true;
                    finish.run();
                }
            }
        };
        Class<? extends Channel> type = address instanceof DomainSocketAddress
                ? transport.domainSocketChannel() : transport.socketChannel();
        long timeout = Math.max(1_000_000, timeoutNanos);
        new Bootstrap().group(loop).channel(type)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout / 1_000_000))
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ReferenceCountUtil.release(msg); // a cancel is answered with nothing
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        once.run();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        ctx.close();
                    }
                })
                .connect(address).addListener((ChannelFutureListener) f -> {
                    if (!f.isSuccess()) {
                        once.run();
                        return;
                    }
                    Channel ch = f.channel();
                    connected.accept(ch);
                    ch.writeAndFlush(Encoders.cancelRequest(ch.alloc(), pid, secret));
                    // the other side closes at once; a stuck one must not hold anything back for ever
                    var stuck = loop.schedule(() -> {
                        ch.close();
                    }, timeout, TimeUnit.NANOSECONDS);
                    ch.closeFuture().addListener(c -> stuck.cancel(false));
                });
    }
}
