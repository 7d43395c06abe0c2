package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.util.ReferenceCountUtil;
import io.sluice.testkit.FreePorts;
import io.sluice.util.TurnClock;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Which transport runs: io_uring where the kernel allows it, else epoll; sluice.io forces one. */
class TransportTest {
    static boolean available(Transport.Kind kind) {
        return switch (kind) {
            case IO_URING -> IoUring.isAvailable();
            case EPOLL -> Epoll.isAvailable();
            case NIO -> true;
        };
    }

    @Test
    void theDefaultIsTheFirstThatRunsOfIoUringEpollNio() {
        Transport.Kind expected = IoUring.isAvailable() ? Transport.Kind.IO_URING
                : Epoll.isAvailable() ? Transport.Kind.EPOLL : Transport.Kind.NIO;
        assertThat(Transport.choose("")).isEqualTo(expected);
    }

    @Test
    void aDefaultThatPassedOverIoUringSaysWhy() {
        String name = new Transport().describe();
        if (IoUring.isAvailable() || !System.getProperty("sluice.io", "").isBlank()) {
            assertThat(name).doesNotContain("unavailable");
        } else {
            assertThat(name).contains("; io_uring unavailable: ");
        }
    }

    @Test
    void aDefaultIoUringWhoseRingCannotBeSetUpFallsBackToEpollAndSaysWhy() {
        assumeTrue(IoUring.isAvailable() && Epoll.isAvailable());
        Transport.Groups noRing = (kind, threads, clock) -> {
            if (kind == Transport.Kind.IO_URING) { // what Netty throws when a child loop's ring fails
                throw new IllegalStateException("failed to create a child event loop",
                        new RuntimeException("failed to create io_uring ring fd: Cannot allocate memory"));
            }
            return new MultiThreadIoEventLoopGroup(threads, EpollIoHandler.newFactory());
        };
        Transport t = new Transport("", noRing);
        EventLoopGroup group = t.newGroup(1);
        try {
            assertThat(t.socketChannel()).isEqualTo(EpollSocketChannel.class);
            assertThat(t.describe()).isEqualTo("epoll; io_uring unavailable: "
                    + "java.lang.RuntimeException: failed to create io_uring ring fd: Cannot allocate memory");
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        }
        assertThatThrownBy(() -> new Transport("io_uring", noRing).newGroup(1))
                .hasMessage("failed to create a child event loop");
    }

    @Test
    void ioUringIsTakenWhenAskedFor() {
        assumeTrue(IoUring.isAvailable());
        assertThat(Transport.choose("io_uring")).isEqualTo(Transport.Kind.IO_URING);
    }

    @Test
    void aNamedTransportIsTakenWhenItRuns() {
        assertThat(Transport.choose("nio")).isEqualTo(Transport.Kind.NIO);
        assumeTrue(Epoll.isAvailable());
        assertThat(Transport.choose(" EPOLL ")).isEqualTo(Transport.Kind.EPOLL);
        assertThat(new Transport(Transport.Kind.EPOLL).describe()).isEqualTo("epoll");
    }

    @Test
    void anUnknownNameFailsWithTheChoices() {
        assertThatThrownBy(() -> Transport.choose("kqueue"))
                .hasMessage("sluice.io=kqueue: expected io_uring, epoll or nio");
    }

    @Test
    void nioHasNoUnixSockets() {
        Transport nio = new Transport(Transport.Kind.NIO);
        assertThat(nio.nativeSockets()).isFalse();
        assertThatThrownBy(nio::domainSocketChannel).hasMessageStartingWith("not supported: unix sockets");
    }

    /** A read callback sees one time however long it runs; a task between turns reads the clock afresh. */
    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void aLoopsTurnIsOneTurnOfItsClock(Transport.Kind kind) throws Exception {
        assumeTrue(available(kind), kind + " is not available here");
        TurnClock clock = new TurnClock();
        EventLoopGroup loop = new Transport(kind).newLoop(clock);
        CompletableFuture<String> seen = new CompletableFuture<>();
        try {
            Channel server = new ServerBootstrap().group(loop).channel(new Transport(kind).serverSocketChannel())
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ReferenceCountUtil.release(msg);
                            long first = clock.nanoTime();
                            spinPast(first);
                            String read = clock.nanoTime() == first ? "read: one time" : "read: two times";
                            ctx.executor().execute(() -> {
                                long t = clock.nanoTime();
                                spinPast(t);
                                seen.complete(read + ", task: " + (clock.nanoTime() == t ? "one time" : "two times"));
                            });
                        }
                    }).bind(InetAddress.getLoopbackAddress(), FreePorts.next()).sync().channel();
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(),
                    ((InetSocketAddress) server.localAddress()).getPort())) {
                client.getOutputStream().write(1);
                assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("read: one time, task: two times");
            }
            server.close().sync();
        } finally {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
        }
    }

    private static void spinPast(long t) {
        while (System.nanoTime() == t) {
            Thread.onSpinWait();
        }
    }
}
