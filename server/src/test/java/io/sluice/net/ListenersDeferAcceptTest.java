package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.uring.IoUringChannelOption;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * tcp_defer_accept, as PgBouncer sets it on its TCP listeners: with it on, a connection that has
 * sent nothing is not handed to the pooler, and one that has sent its first bytes is; with it off,
 * both are, in the order they connected. RELOAD turns it either way on a bound listener.
 */
class ListenersDeferAcceptTest {

    @ParameterizedTest
    @EnumSource(value = Transport.Kind.class, names = {"IO_URING", "EPOLL"})
    void onlyAConnectionThatHasSentIsAcceptedWhileItIsOn(Transport.Kind kind) throws Exception {
        assumeTrue(TransportTest.available(kind), kind + " is not available here");
        Transport transport = new Transport(kind);
        EventLoopGroup group = transport.newGroup(1);
        Listeners listeners = new Listeners(group, transport, line -> { }, line -> { }, line -> { });
        BlockingQueue<Integer> accepted = new LinkedBlockingQueue<>();
        List<Channel> listening = new CopyOnWriteArrayList<>();
        try {
            listeners.deferAccept(true);
            listeners.bind(List.of("127.0.0.1"), 0, 16, false, () -> new TcpTuning(false, 0, 0, 0, 0, 0), null, 0,
                    null, true, (Channel ch, Boolean unix) -> {
                        listening.add(ch.parent());
                        accepted.add(((InetSocketAddress) ch.remoteAddress()).getPort());
                        ch.close();
                    });
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", listeners.tcpPorts().get(0));

            try (Socket silent = connect(address); Socket speaking = connect(address)) {
                speaking.getOutputStream().write(0);
                // the accept queue is first come, first served: without the option the silent
                // connection would be handed over before the one that spoke
                assertThat(accepted.poll(10, TimeUnit.SECONDS)).isEqualTo(speaking.getLocalPort());
                assertThat(accepted).isEmpty();
                assertThat(deferSeconds(listening.get(0))).isPositive();

                listeners.deferAccept(false); // RELOAD with tcp_defer_accept = 0
                assertThat(deferSeconds(listening.get(0))).isZero();
                try (Socket second = connect(address)) {
                    // a silent connection is now handed over; the first silent one may come out
                    // of the kernel's queue before it, once its SYN-ACK has been sent again
                    Integer port = accepted.poll(10, TimeUnit.SECONDS);
                    if (port != null && port == silent.getLocalPort()) {
                        port = accepted.poll(10, TimeUnit.SECONDS);
                    }
                    assertThat(port).isEqualTo(second.getLocalPort());
                }
                listeners.deferAccept(true);
                assertThat(deferSeconds(listening.get(0))).isPositive();
            }
        } finally {
            listeners.closeAll().get(10, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }

    private static Socket connect(InetSocketAddress address) throws Exception {
        Socket s = new Socket();
        s.connect(address, 5000);
        return s;
    }

    /** What the kernel reports for the listener (it rounds 45 s up to whole SYN-ACK retransmissions). */
    private static int deferSeconds(Channel listener) {
        Integer v = listener.config().getOption(IoUringChannelOption.TCP_DEFER_ACCEPT);
        return v != null ? v : listener.config().getOption(EpollChannelOption.TCP_DEFER_ACCEPT);
    }
}
