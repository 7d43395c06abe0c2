package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Accepted TCP sockets have SO_KEEPALIVE as tcp_keepalive says at their accept, whether the
 * listener was bound with it on (native transports then set it once on the listening socket,
 * and the kernel copies it) or off, and after a RELOAD turns it the other way.
 */
class ListenersKeepaliveTest {

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void boundWithKeepaliveThenTurnedOffAndOnAgain(Transport.Kind kind) throws Exception {
        assertThat(keepaliveOfAccepted(kind, List.of(true, false, true))).containsExactly(true, false, true);
    }

    @ParameterizedTest
    @EnumSource(Transport.Kind.class)
    void boundWithoutKeepaliveThenTurnedOn(Transport.Kind kind) throws Exception {
        assertThat(keepaliveOfAccepted(kind, List.of(false, true, false))).containsExactly(false, true, false);
    }

    /** Binds with the first setting; for each setting in turn, connects once and reads the accepted socket's SO_KEEPALIVE. */
    private static List<Boolean> keepaliveOfAccepted(Transport.Kind kind, List<Boolean> settings) throws Exception {
        assumeTrue(TransportTest.available(kind), kind + " is not available here");
        Transport transport = new Transport(kind);
        EventLoopGroup group = transport.newGroup(1);
        Listeners listeners = new Listeners(group, transport, line -> { }, line -> { }, line -> { });
        AtomicReference<TcpTuning> tuning = new AtomicReference<>(tuning(settings.get(0)));
        BlockingQueue<Boolean> seen = new LinkedBlockingQueue<>();
        try {
            listeners.bind(List.of("127.0.0.1"), 0, 16, false, tuning::get, null, 0, null, true,
                    (Channel ch, Boolean unix) -> {
                        seen.add(ch.config().getOption(ChannelOption.SO_KEEPALIVE));
                        ch.close();
                    });
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", listeners.tcpPorts().get(0));
            List<Boolean> out = new java.util.ArrayList<>();
            for (boolean keepalive : settings) {
                tuning.set(tuning(keepalive)); // as a RELOAD: read at each accept
                try (Socket s = new Socket()) {
                    s.connect(address, 5000);
                    Boolean got = seen.poll(10, TimeUnit.SECONDS);
                    assertThat(got).as("accepted within 10 s").isNotNull();
                    out.add(got);
                }
            }
            return out;
        } finally {
            listeners.closeAll().get(10, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }

    private static TcpTuning tuning(boolean keepalive) {
        return new TcpTuning(keepalive, 0, 0, 0, 0, 0);
    }
}
