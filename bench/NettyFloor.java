import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.sluice.net.Transport;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;

/**
 * The least a Netty relay can cost: each client connection gets its own server connection
 * (session mode, nothing pooled) and bytes are copied both ways without reading a single
 * protocol message. No pooler built on the same Netty transport can spend less CPU per
 * transaction than this, so its cost next to PgBouncer's tells what is left to gain in
 * Sluice's own code and what is Netty's and the JVM's (FLOOR=1 bench/pgbench-compare.sh).
 *
 * One event loop, as Sluice has; TCP_NODELAY both ways, as both poolers set it; one read per
 * connection per loop turn, as Sluice reads (net.FairReads), which also saves the read that would
 * only find the socket empty.
 *
 *   java -cp server/target/sluice.jar bench/NettyFloor.java LISTEN_PORT TARGET_PORT
 */
public final class NettyFloor {
    /** Copies what one side reads to the other; a flush per read burst, as Sluice does. */
    private static final class Pipe extends ChannelInboundHandlerAdapter {
        private final Channel peer;

        Pipe(Channel peer) {
            this.peer = peer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            peer.write(msg, peer.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            peer.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            peer.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static final RecvByteBufAllocator ONE_READ = new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1);

    public static void main(String[] args) throws InterruptedException {
        int listenPort = Integer.parseInt(args[0]);
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1]));
        // the transport Sluice itself would pick (epoll; -Dsluice.io=io_uring for io_uring)
        Transport transport = new Transport();
        EventLoopGroup loop = transport.newGroup(1);
        new ServerBootstrap().group(loop).channel(transport.serverSocketChannel())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, ONE_READ)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        new Bootstrap().group(client.eventLoop()).channel(transport.socketChannel())
                                .option(ChannelOption.TCP_NODELAY, true)
                                .option(ChannelOption.RCVBUF_ALLOCATOR, ONE_READ)
                                .handler(new Pipe(client))
                                .connect(target)
                                .addListener((ChannelFutureListener) f -> {
                                    if (!f.isSuccess()) {
                                        client.close();
                                        return;
                                    }
                                    client.pipeline().addLast(new Pipe(f.channel()));
                                    client.config().setAutoRead(true);
                                });
                    }
                })
                .bind("127.0.0.1", listenPort).sync().channel().closeFuture().sync();
    }
}
