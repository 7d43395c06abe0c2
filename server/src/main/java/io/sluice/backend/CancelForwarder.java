package io.sluice.backend;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.sluice.net.Transport;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.codec.Encoders;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Sends a CancelRequest for a server's backend on a new connection to that server, as
 * PostgreSQL requires; the client only ever sees Sluice's own keys.
 */
public final class CancelForwarder {
    private final EventLoop loop;
    private final Transport transport;
    private final String defaultSocketDir;

    public CancelForwarder(EventLoop loop, Transport transport, String defaultSocketDir) {
        this.loop = loop;
        this.transport = transport;
        this.defaultSocketDir = defaultSocketDir;
    }

    public void cancel(ServerConnection server) {
        BackendMessage.BackendKeyData key = server.cancelKey();
        if (key == null) {
            return; // no query can run before login, so there is nothing to cancel
        }
        BackendTarget t = server.target();
        SocketAddress address = t.unixSocket()
                ? new DomainSocketAddress(t.socketPath(defaultSocketDir))
                : new InetSocketAddress(t.host(), t.port());
        Class<? extends Channel> type = t.unixSocket() ? transport.domainSocketChannel() : transport.socketChannel();
        new Bootstrap().group(loop).channel(type).handler(new ChannelInboundHandlerAdapter())
                .connect(address).addListener((ChannelFutureListener) f -> {
                    if (f.isSuccess()) {
                        f.channel().writeAndFlush(Encoders.cancelRequest(f.channel().alloc(), key.processId(), key.secretKey()))
                                .addListener(ChannelFutureListener.CLOSE);
                    }
                });
    }
}
