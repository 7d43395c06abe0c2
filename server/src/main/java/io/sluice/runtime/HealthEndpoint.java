package io.sluice.runtime;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.config.DatabaseEntry;
import io.sluice.config.ServerAddress;
import io.sluice.hosts.HealthAnswer;
import io.sluice.hosts.HostHealth;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The load balancers' port ({@code health_listen_port}): one line in, one answer out, then the
 * connection closes. An HAProxy {@code agent-check} sends its {@code agent-send} line, {@code
 * <database>} or {@code <database> <host>:<port>}, and gets {@code up ready 100%}, {@code drain 0%}
 * or {@code down}; {@code GET /health/<database>[/<host>:<port>]} gets 200 or 503 (404 when
 * unknown), for Kubernetes or an HTTP check. A request without a newline is answered after
 * 200 ms of silence. Answers are computed on the server's loop.
 */
final class HealthEndpoint {
    private static final int MAX_REQUEST = 1024;

    private HealthEndpoint() {
    }

    /** Binds when {@code health_listen_port} is set; null when off. */
    static Channel startIfConfigured(SluiceServer server, io.netty.channel.EventLoopGroup group,
                                     io.sluice.net.Transport transport) throws InterruptedException {
        var s = server.routing().config().settings();
        int port = s.intValue("health_listen_port");
        if (port <= 0) {
            return null;
        }
        Channel ch = new ServerBootstrap().group(group).channel(transport.serverSocketChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new Request(server));
                    }
                }).bind(new InetSocketAddress(s.string("health_listen_addr"), port)).sync().channel();
        io.sluice.log.Log.global().info("health: listening on " + s.string("health_listen_addr") + ":" + port);
        return ch;
    }

    /** What {@code database} (and optionally its host {@code host:port}) looks like to a load balancer. */
    static HealthAnswer answer(SluiceServer server, String database, String host) {
        DatabaseEntry e = server.routing().config().databases().get(database);
        if (e == null) {
            return HealthAnswer.UNKNOWN;
        }
        if (host == null) {
            return HealthAnswer.database(e.addresses().stream().anyMatch(a -> server.replicas().inService(database, a)));
        }
        for (ServerAddress a : e.addresses()) {
            if (a.label().equals(host)) {
                List<HostHealth> checked = server.replicas().hosts(database);
                return checked.stream().filter(h -> h.address().equals(a)).findFirst()
                        .map(h -> HealthAnswer.host(h, server.replicas().inService(database, a)))
                        .orElse(HealthAnswer.database(true)); // no checks: always in service
            }
        }
        return HealthAnswer.UNKNOWN;
    }

    private static final class Request extends ChannelInboundHandlerAdapter {
        private final SluiceServer server;
        private final StringBuilder text = new StringBuilder();
        private ScheduledFuture<?> quiet;
        private boolean answered;

        Request(SluiceServer server) {
            this.server = server;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            try {
                text.append(b.toString(StandardCharsets.US_ASCII));
            } finally {
                b.release();
            }
            if (text.indexOf("\n") >= 0 || text.length() > MAX_REQUEST) {
                respond(ctx);
            } else if (quiet == null) {
                quiet = ctx.executor().schedule(() -> respond(ctx), 200, TimeUnit.MILLISECONDS);
            }
        }

        private void respond(ChannelHandlerContext ctx) {
            if (answered) {
                return;
            }
            answered = true;
            if (quiet != null) {
                quiet.cancel(false);
            }
            String line = text.toString().lines().findFirst().orElse("").strip();
            boolean http = line.startsWith("GET ");
            server.loop().execute(() -> {
                String out;
                if (http) {
                    String path = line.split(" ")[1];
                    String[] parts = path.startsWith("/health/") ? path.substring(8).split("/", 2) : new String[0];
                    HealthAnswer a = parts.length == 0 || parts[0].isEmpty() ? HealthAnswer.UNKNOWN
                            : answer(server, parts[0], parts.length > 1 ? parts[1] : null);
                    String body = a.text() + "\n";
                    out = "HTTP/1.0 " + a.httpStatus() + (a.httpStatus() == 200 ? " OK" : a.httpStatus() == 404
                            ? " Not Found" : " Service Unavailable") + "\r\nContent-Type: text/plain\r\nContent-Length: "
                            + body.length() + "\r\nConnection: close\r\n\r\n" + body;
                } else {
                    String[] words = line.split("\\s+", 2);
                    out = answer(server, words[0], words.length > 1 ? words[1].strip() : null).agentReply() + "\n";
                }
                ctx.writeAndFlush(Unpooled.copiedBuffer(out, StandardCharsets.US_ASCII))
                        .addListener(ChannelFutureListener.CLOSE);
            });
        }
    }
}
