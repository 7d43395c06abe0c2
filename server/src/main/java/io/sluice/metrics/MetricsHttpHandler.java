package io.sluice.metrics;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Answers {@code GET /metrics} (and HEAD) with the exposition text, everything else with 404
 * or 405. Runs on the channel's event loop; the table read completes asynchronously and the
 * reply is written back on the channel's loop.
 */
final class MetricsHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final PrometheusMetrics metrics;
    private final Supplier<CompletionStage<Map<String, ShowTable>>> tables;

    MetricsHttpHandler(PrometheusMetrics metrics, Supplier<CompletionStage<Map<String, ShowTable>>> tables) {
        this.metrics = metrics;
        this.tables = tables;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        String path = new QueryStringDecoder(req.uri()).path();
        boolean head = req.method().equals(HttpMethod.HEAD);
        if (!req.method().equals(HttpMethod.GET) && !head) {
            reply(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", "method not allowed\n", keepAlive, head);
            return;
        }
        if (!path.equals("/metrics")) {
            reply(ctx, HttpResponseStatus.NOT_FOUND, "text/plain", "see /metrics\n", keepAlive, head);
            return;
        }
        tables.get().whenComplete((t, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                reply(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "text/plain", "scrape failed: " + error + "\n",
                        keepAlive, head);
            } else {
                reply(ctx, HttpResponseStatus.OK, PrometheusMetrics.contentType(), metrics.render(t), keepAlive, head);
            }
        }));
    }

    private static void reply(ChannelHandlerContext ctx, HttpResponseStatus status, String type, String body,
            boolean keepAlive, boolean head) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse resp = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
        resp.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
        resp.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        if (keepAlive) {
            resp.headers().set(HttpHeaderNames.CONNECTION, "keep-alive");
            ctx.writeAndFlush(resp);
        } else {
            ctx.writeAndFlush(resp).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
