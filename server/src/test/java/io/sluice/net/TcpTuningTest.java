package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.uring.IoUringChannelOption;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Accepted client sockets end up with TCP_NODELAY on and SO_KEEPALIVE as tcp_keepalive says, set or not. */
class TcpTuningTest {

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void acceptedSocketsGetNoDelayAndTheConfiguredKeepalive(Transport.Kind kind) throws Exception {
        assumeTrue(TransportTest.available(kind), kind + " is not available here");
        assertThat(optionsOfAccepted(kind, new TcpTuning(true, 0, 0, 0, 0, 0))).isEqualTo(List.of(true, true));
        assertThat(optionsOfAccepted(kind, new TcpTuning(false, 0, 0, 0, 0, 0))).isEqualTo(List.of(true, false));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.Kind.class, names = {"IO_URING", "EPOLL"})
    void nativeTransportsSetKeepaliveTimesAndUserTimeout(Transport.Kind kind) throws Exception {
        assumeTrue(TransportTest.available(kind), kind + " is not available here");
        ChannelOption<Integer> idle = kind == Transport.Kind.IO_URING
                ? IoUringChannelOption.TCP_KEEPIDLE : EpollChannelOption.TCP_KEEPIDLE;
        ChannelOption<Integer> userTimeout = kind == Transport.Kind.IO_URING
                ? IoUringChannelOption.TCP_USER_TIMEOUT : EpollChannelOption.TCP_USER_TIMEOUT;
        CompletableFuture<List<Integer>> seen = new CompletableFuture<>();
        accept(kind, new TcpTuning(true, 77, 0, 0, 4321, 0), ch -> seen.complete(
                List.of(ch.config().getOption(idle), ch.config().getOption(userTimeout))));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo(List.of(77, 4321));
    }

    /** TCP_NODELAY and SO_KEEPALIVE of a socket accepted with {@code tuning}, read back from the socket. */
    private static List<Boolean> optionsOfAccepted(Transport.Kind kind, TcpTuning tuning) throws Exception {
        CompletableFuture<List<Boolean>> seen = new CompletableFuture<>();
        accept(kind, tuning, ch -> seen.complete(List.of(ch.config().getOption(ChannelOption.TCP_NODELAY),
                ch.config().getOption(ChannelOption.SO_KEEPALIVE))));
        return seen.get(10, TimeUnit.SECONDS);
    }

    /** Accepts one connection with {@code tuning} applied and hands the accepted channel to {@code check}. */
    private static void accept(Transport.Kind kind, TcpTuning tuning, Consumer<Channel> check) throws Exception {
        Transport transport = new Transport(kind);
        EventLoopGroup group = transport.newGroup(1);
        try {
            Channel listener = new ServerBootstrap().group(group).channel(transport.serverSocketChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            tuning.apply(ch);
                            check.accept(ch);
                            ch.close();
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            try (Socket s = new Socket()) {
                s.setSoTimeout(10_000);
                s.connect(listener.localAddress(), 5000);
                assertThat(s.getInputStream().read()).as("end of stream once checked").isEqualTo(-1);
            } finally {
                listener.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }
}
