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
 * Chooses the channel implementation: io_uring on Linux where the kernel allows it, else epoll
 * (as PgBouncer's libevent), else NIO (TCP only: unix sockets need a native transport). One
 * {@code io_uring_enter} a loop turn submits every send and collects every receive, which cut the
 * pooler's CPU per transaction by about half on this project's test VM (docs/configuration.md).
 * The system property {@code sluice.io} ({@code io_uring}, {@code epoll} or {@code nio}) forces one.
 */
public final class Transport {
    /** A way of doing socket I/O. */
    public enum Kind { IO_URING, EPOLL, NIO }

    private final Kind kind;
    /** Why io_uring was passed over when nothing was forced; null otherwise. */
    private final String passedOver;

    public Transport() {
        this(System.getProperty("sluice.io", ""));
    }

    private Transport(String wanted) {
        this.kind = choose(wanted);
        this.passedOver = wanted.isBlank() && kind != Kind.IO_URING ? String.valueOf(IoUring.unavailabilityCause()) : null;
    }

    public Transport(Kind kind) {
        this.kind = kind;
        this.passedOver = null;
    }

    /**
     * The transport {@code wanted} names; with none, the first of io_uring, epoll and NIO that can
     * run here. A forced transport that cannot run fails at start with the reason rather than
     * silently falling back.
     */
    static Kind choose(String wanted) {
        switch (wanted.trim().toLowerCase(Locale.ROOT)) {
            case "" -> {
                return IoUring.isAvailable() ? Kind.IO_URING : Epoll.isAvailable() ? Kind.EPOLL : Kind.NIO;
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

    /**
     * The name the start-up log gives; when io_uring was passed over by default, also why, so an
     * operator who expected it sees what the kernel refused (a container's seccomp profile,
     * {@code kernel.io_uring_disabled}).
     */
    public String describe() {
        String name = kind.name().toLowerCase(Locale.ROOT);
        return passedOver == null ? name : name + "; io_uring unavailable: " + passedOver;
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
