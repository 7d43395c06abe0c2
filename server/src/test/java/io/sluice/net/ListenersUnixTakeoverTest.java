package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, a restart from one config: the successor takes the unix socket path over, and the
 * old process closing its listener (at SIGTERM) leaves the successor's file in place. Netty
 * deletes the name a listener was bound to when it closes, which once removed the successor's.
 */
class ListenersUnixTakeoverTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Transport.Kind.class, names = {"IO_URING", "EPOLL"})
    void theOldListenerClosingLeavesTheSuccessorsSocket(Transport.Kind kind) throws Exception {
        assumeTrue(TransportTest.available(kind), kind + " is not available here");
        Transport transport = new Transport(kind);
        EventLoopGroup group = transport.newGroup(1);
        Path path = dir.resolve(".s.PGSQL.6432");
        BlockingQueue<String> accepted = new LinkedBlockingQueue<>();
        try {
            Listeners old = listeners(transport, group, "old", accepted);
            Listeners successor = listeners(transport, group, "successor", accepted);
            assertThat(accepted.poll(10, TimeUnit.SECONDS)).as("the successor's probe: is the path in use?").isEqualTo("old");
            connect(path);
            assertThat(accepted.poll(10, TimeUnit.SECONDS)).isEqualTo("successor");
            old.closeAll();
            assertThat(path).as("the successor's socket file").exists();
            connect(path);
            assertThat(accepted.poll(10, TimeUnit.SECONDS)).isEqualTo("successor");
            assertThat(dir.toFile().list()).containsExactly(".s.PGSQL.6432");
            successor.closeAll();
            assertThat(path).doesNotExist();
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }

    private Listeners listeners(Transport transport, EventLoopGroup group, String name, BlockingQueue<String> accepted)
            throws IOException {
        Listeners l = new Listeners(group, transport, line -> { }, line -> { }, line -> { });
        l.bind(List.of(), 6432, 16, true, () -> null, dir.toString(), 0777, null, true, (Channel ch, Boolean unix) -> {
            accepted.add(name);
            ch.close();
        });
        return l;
    }

    private static void connect(Path path) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(path));
        }
    }
}
