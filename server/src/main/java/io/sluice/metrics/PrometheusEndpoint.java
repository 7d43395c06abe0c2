package io.sluice.metrics;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The HTTP listener for {@code GET /metrics}, on the server's own event loop group (no second
 * HTTP server, no extra threads). {@code tables} is called once per scrape and must read the
 * SHOW tables on the thread that owns the pooler state, completing later; the handler never
 * blocks its loop waiting for it.
 */
public final class PrometheusEndpoint implements AutoCloseable {
    private final Channel channel;

    private PrometheusEndpoint(Channel channel) {
        this.channel = channel;
    }

    /** Binds {@code addr:port} (port 0 picks a free one) and returns once bound. */
    public static PrometheusEndpoint bind(EventLoopGroup group, Class<? extends ServerChannel> channelClass,
            String addr, int port, PrometheusMetrics metrics, Supplier<CompletionStage<Map<String, ShowTable>>> tables)
            throws InterruptedException {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(channelClass)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(16 * 1024),
                                new MetricsHttpHandler(metrics, tables));
                    }
                });
        Channel ch = b.bind(new InetSocketAddress(addr, port)).sync().channel();
        return new PrometheusEndpoint(ch);
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close();
    }
}
