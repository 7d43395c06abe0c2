package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** Accepted client sockets end up with TCP_NODELAY on and SO_KEEPALIVE as tcp_keepalive says, set or not. */
class TcpTuningTest {

    @Test
    void acceptedSocketsGetNoDelayAndTheConfiguredKeepalive() throws Exception {
        assertThat(optionsOfAccepted(new TcpTuning(true, 0, 0, 0, 0, 0))).isEqualTo(List.of(true, true));
        assertThat(optionsOfAccepted(new TcpTuning(false, 0, 0, 0, 0, 0))).isEqualTo(List.of(true, false));
    }

    /** TCP_NODELAY and SO_KEEPALIVE of a socket accepted with {@code tuning}, read back from the socket. */
    private static List<Boolean> optionsOfAccepted(TcpTuning tuning) throws Exception {
        Transport transport = new Transport();
        EventLoopGroup group = transport.newGroup(1);
        CompletableFuture<List<Boolean>> seen = new CompletableFuture<>();
        try {
            Channel listener = new ServerBootstrap().group(group).channel(transport.serverSocketChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            tuning.apply(ch);
                            seen.complete(List.of(ch.config().getOption(ChannelOption.TCP_NODELAY),
                                    ch.config().getOption(ChannelOption.SO_KEEPALIVE)));
                        }
                    }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            try (Socket s = new Socket()) {
                s.connect(listener.localAddress(), 5000);
                return seen.get(10, TimeUnit.SECONDS);
            } finally {
                listener.close().sync();
            }
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }
}
