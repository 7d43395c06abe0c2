package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.Locale;

/**
 * Chooses the channel implementation: native epoll on Linux (as PgBouncer's libevent), NIO
 * elsewhere (TCP only: unix sockets need a native transport). The system property
 * {@code sluice.io} ({@code epoll}, {@code io_uring} or {@code nio}) forces one. io_uring is
 * opt-in: one {@code io_uring_enter} a loop turn submits every send and collects every receive,
 * which cut the pooler's CPU per transaction by about half on this project's test VM, but with
 * 500 clients queued on a pool of 40 a few transactions waited many times longer than the others
 * started with them (docs/configuration.md), which the FIFO handoff exists to prevent.
 */
public final class Transport {
    /** A way of doing socket I/O. */
    public enum Kind { IO_URING, EPOLL, NIO }

    private final Kind kind;

    public Transport() {
        this(choose(System.getProperty("sluice.io", "")));
    }

    public Transport(Kind kind) {
        this.kind = kind;
    }

    /**
     * The transport {@code wanted} names if it can run here, else epoll, else NIO: a forced
     * transport that cannot run fails at start with the reason rather than silently falling back.
     */
    static Kind choose(String wanted) {
        switch (wanted.trim().toLowerCase(Locale.ROOT)) {
            case "" -> {
                return Epoll.isAvailable() ? Kind.EPOLL : Kind.NIO;
            }
            case "io_uring" -> {
                if (!IoUring.isAvailable()) {
                    throw new IllegalStateException("sluice.io=io_uring: io_uring is not available ("
                            + IoUring.unavailabilityCause() + ")");
                }
                return Kind.IO_URING;
            }
            case "epoll" -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("sluice.io=epoll: epoll is not available ("
                            + Epoll.unavailabilityCause() + ")");
                }
                return Kind.EPOLL;
            }
            case "nio" -> {
                return Kind.NIO;
            }
            default -> throw new IllegalStateException("sluice.io=" + wanted + ": expected io_uring, epoll or nio");
        }
    }

    /** The name the start-up log gives. */
    public String describe() {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    /** Whether unix sockets and peer credentials work (a native transport). */
    public boolean nativeSockets() {
        return kind != Kind.NIO;
    }

    public EventLoopGroup newGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, switch (kind) {
            case IO_URING -> IoUringIoHandler.newFactory();
            case EPOLL -> EpollIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        });
    }

    public Class<? extends Channel> socketChannel() {
        return switch (kind) {
            case IO_URING -> IoUringSocketChannel.class;
            case EPOLL -> EpollSocketChannel.class;
            case NIO -> NioSocketChannel.class;
        };
    }

    public Class<? extends ServerChannel> serverSocketChannel() {
        return switch (kind) {
            case IO_URING -> IoUringServerSocketChannel.class;
            case EPOLL -> EpollServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }

    public Class<? extends Channel> domainSocketChannel() {
        return switch (kind) {
            case IO_URING -> IoUringDomainSocketChannel.class;
            case EPOLL -> EpollDomainSocketChannel.class;
            case NIO -> throw noUnixSockets();
        };
    }

    public Class<? extends ServerChannel> serverDomainSocketChannel() {
        return switch (kind) {
            case IO_URING -> IoUringServerDomainSocketChannel.class;
            case EPOLL -> EpollServerDomainSocketChannel.class;
            case NIO -> throw noUnixSockets();
        };
    }

    private static IllegalStateException noUnixSockets() {
        return new IllegalStateException("not supported: unix sockets need Linux native io_uring or epoll ("
                + Epoll.unavailabilityCause() + ")");
    }
}
