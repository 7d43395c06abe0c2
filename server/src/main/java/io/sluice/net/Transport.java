package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * Chooses the channel implementation: native epoll on Linux (needed for unix sockets and peer
 * credentials), NIO elsewhere (TCP only).
 */
public final class Transport {
    private final boolean epoll = Epoll.isAvailable();

    public boolean nativeEpoll() {
        return epoll;
    }

    public EventLoopGroup newGroup(int threads) {
        return epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
    }

    public Class<? extends Channel> socketChannel() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    public Class<? extends ServerChannel> serverSocketChannel() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public Class<? extends Channel> domainSocketChannel() {
        requireEpoll();
        return EpollDomainSocketChannel.class;
    }

    public Class<? extends ServerChannel> serverDomainSocketChannel() {
        requireEpoll();
        return EpollServerDomainSocketChannel.class;
    }

    private void requireEpoll() {
        if (!epoll) {
            throw new IllegalStateException("not supported: unix sockets need Linux native epoll ("
                    + Epoll.unavailabilityCause() + ")");
        }
    }
}
