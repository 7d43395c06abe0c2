package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
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

import io.sluice.util.TurnClock;

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

    /** Builds a loop group of a kind: Netty's, or a test's. */
    interface Groups {
        /** {@code clock}, when not null, is timed by each turn of the loops' I/O. */
        EventLoopGroup make(Kind kind, int threads, TurnClock clock);
    }

    private final boolean defaulted;
    private final Groups groups;
    // Both change at most once, in newGroup, when a default io_uring cannot set up its ring.
    private Kind kind;
    /** Why io_uring was passed over when nothing was forced; null otherwise. */
    private String passedOver;

    public Transport() {
        this(System.getProperty("sluice.io", ""), Transport::nettyGroup);
    }

    Transport(String wanted, Groups groups) {
        this.kind = choose(wanted);
        this.defaulted = wanted.isBlank();
        this.passedOver = defaulted && kind != Kind.IO_URING ? String.valueOf(IoUring.unavailabilityCause()) : null;
        this.groups = groups;
    }

    public Transport(Kind kind) {
        this.kind = kind;
        this.defaulted = false;
        this.passedOver = null;
        this.groups = Transport::nettyGroup;
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

    /**
     * The event loops; ask for the channel classes after this. Where io_uring was the default but
     * a loop's ring cannot be set up (kernels before 5.12 count it against RLIMIT_MEMLOCK, and
     * Netty's availability probe sets up a smaller one), this falls back to epoll and names the
     * reason, as when io_uring is unavailable; a forced io_uring fails the start instead.
     */
    public EventLoopGroup newGroup(int threads) {
        return newGroup(threads, null);
    }

    /** {@link #newGroup} of one loop, each turn of whose I/O is a turn of {@code clock}. */
    public EventLoopGroup newLoop(TurnClock clock) {
        return newGroup(1, clock);
    }

    private EventLoopGroup newGroup(int threads, TurnClock clock) {
        try {
            return groups.make(kind, threads, clock);
        } catch (RuntimeException e) {
            if (!defaulted || kind != Kind.IO_URING) {
                throw e;
            }
            kind = Epoll.isAvailable() ? Kind.EPOLL : Kind.NIO;
            passedOver = String.valueOf(e.getCause() == null ? e : e.getCause());
            return groups.make(kind, threads, clock);
        }
    }

    private static EventLoopGroup nettyGroup(Kind kind, int threads, TurnClock clock) {
        IoHandlerFactory io = switch (kind) {
            case IO_URING -> IoUringIoHandler.newFactory();
            case EPOLL -> EpollIoHandler.newFactory();
            case NIO -> NioIoHandler.newFactory();
        };
        return new MultiThreadIoEventLoopGroup(threads, clock == null ? io : TimedTurns.factory(io, clock));
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
