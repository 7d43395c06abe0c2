package io.sluice.warmup;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.StartupPacket;
import io.sluice.proto.TransactionStatus;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrameDecoder;
import io.sluice.proto.codec.StartupDecoder;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * A stand-in for PostgreSQL that the warm-up's pool logs in to, on 127.0.0.1 and a port the
 * kernel picks: no password, a fixed set of server parameters, and one row holding int4 1 for
 * every query, simple or extended. It answers only what {@link ExerciseClient} sends through
 * the pooler; any other message gets an error.
 */
public final class StandInBackend implements AutoCloseable {
    /** The parameters a PostgreSQL 15 server reports at login that clients and the pooler read. */
    private static final Map<String, String> PARAMETERS = Map.of(
            "server_version", "15.0",
            "server_encoding", "UTF8",
            "client_encoding", "UTF8",
            "DateStyle", "ISO, MDY",
            "TimeZone", "UTC",
            "integer_datetimes", "on",
            "standard_conforming_strings", "on",
            "application_name", "");
    /** Where both ends of the warm-up and its pooler listen (the pooler's config names it too). */
    public static final String HOST = "127.0.0.1";
    private static final int INT4 = 23;
    private static final long CLOSE_WAIT_MILLIS = 2000;

    private final Channel listener;
    private final ChannelGroup connections;

    private StandInBackend(Channel listener, ChannelGroup connections) {
        this.listener = listener;
        this.connections = connections;
    }

    /** Listens on 127.0.0.1 with {@code group}'s loop; blocks until bound. */
    public static StandInBackend start(EventLoopGroup group, Class<? extends ServerChannel> channelType)
            throws InterruptedException {
        ChannelGroup connections = new DefaultChannelGroup("stand-in", group.next());
        Channel ch = new ServerBootstrap()
                .group(group)
                .channel(channelType)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        connections.add(c);
                        c.pipeline().addLast("startup", new StartupDecoder(2048, Integer.MAX_VALUE));
                        c.pipeline().addLast("session", new Session());
                    }
                })
                .bind(new InetSocketAddress(HOST, 0)).sync().channel();
        return new StandInBackend(ch, connections);
    }

    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /**
     * Closes the listener and every connection, and waits for that (bounded), so that the loop
     * can stop without a close still pending on it.
     */
    @Override
    public void close() {
        listener.close().awaitUninterruptibly(CLOSE_WAIT_MILLIS);
        connections.close().awaitUninterruptibly(CLOSE_WAIT_MILLIS);
    }

    /** One server connection of the pooler's. */
    private static final class Session extends SimpleChannelInboundHandler<Object> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, Object msg) {
            var alloc = ctx.alloc();
            if (msg instanceof StartupPacket.Startup) {
                ctx.pipeline().replace("startup", "frames", new FrameDecoder(1 << 20, ""));
                ctx.write(Encoders.authentication(alloc, 0, new byte[0]));
                PARAMETERS.forEach((k, v) -> ctx.write(Encoders.parameterStatus(alloc, k, v)));
                ctx.write(Encoders.backendKeyData(alloc, ctx.channel().hashCode(), 0));
                ctx.write(Encoders.readyForQuery(alloc, TransactionStatus.IDLE));
                return;
            }
            if (!(msg instanceof Frame f)) {
                refuse(ctx, "not supported by the warm-up's stand-in backend: " + msg.getClass().getSimpleName());
                return;
            }
            switch (f.type()) {
                case 'Q' -> {
                    ctx.write(Encoders.rowDescription(alloc, List.of("?column?"), List.of(INT4)));
                    ctx.write(Encoders.dataRow(alloc, List.of("1")));
                    ctx.write(Encoders.commandComplete(alloc, "SELECT 1"));
                    ctx.write(Encoders.readyForQuery(alloc, TransactionStatus.IDLE));
                }
                case 'P' -> ctx.write(Encoders.parseComplete(alloc));
                case 'B' -> ctx.write(Encoders.bindComplete(alloc));
                case 'D' -> ctx.write(Encoders.rowDescription(alloc, List.of("?column?"), List.of(INT4)));
                case 'E' -> {
                    ctx.write(Encoders.dataRow(alloc, List.of("1")));
                    ctx.write(Encoders.commandComplete(alloc, "SELECT 1"));
                }
                case 'S' -> ctx.write(Encoders.readyForQuery(alloc, TransactionStatus.IDLE));
                case 'X' -> ctx.close();
                default -> refuse(ctx, "not supported by the warm-up's stand-in backend: message '"
                        + (char) f.type() + "'");
            }
        }

        private static void refuse(ChannelHandlerContext ctx, String message) {
            ctx.write(Encoders.error(ctx.alloc(), PgError.error(SqlState.FEATURE_NOT_SUPPORTED, message)));
            ctx.write(Encoders.readyForQuery(ctx.alloc(), TransactionStatus.IDLE));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
