package io.sluice.warmup;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoopGroup;
import io.sluice.net.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The warm-up's two ends talk to each other directly: logins, both query protocols, logout. */
class StandInBackendTest {
    private final Transport transport = new Transport();
    private EventLoopGroup group;

    @BeforeEach
    void start() {
        group = transport.newGroup(1);
    }

    @AfterEach
    void stop() {
        group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    @Test
    void aClientRoundIsAnsweredToTheEnd() throws Exception {
        try (StandInBackend backend = StandInBackend.start(group, transport.serverSocketChannel())) {
            ExerciseClient client = new ExerciseClient(backend.port(), "u", "db");
            for (int i = 0; i < 3; i++) {
                client.round();
            }
        }
    }

    @Test
    void aPeerThatClosesFailsTheRound() throws Exception {
        try (ServerSocket closer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = closer.accept()) {
                    s.getInputStream().readNBytes(8); // the startup packet's start, then close
                } catch (IOException ignored) {
                    // the test fails on the client side if this side goes wrong
                }
            });
            t.start();
            ExerciseClient client = new ExerciseClient(closer.getLocalPort(), "u", "db");
            assertThatThrownBy(client::round).isInstanceOf(IOException.class);
            t.join(5000);
        }
    }

    @Test
    void anErrorResponseFailsTheRoundWithItsMessage() throws Exception {
        try (ServerSocket erring = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                try (Socket s = erring.accept()) {
                    s.getInputStream().readNBytes(4);
                    byte[] body = "SFATAL\0C28000\0Mno such user\0\0".getBytes("US-ASCII");
                    var out = new java.io.DataOutputStream(s.getOutputStream());
                    out.writeByte('E');
                    out.writeInt(body.length + 4);
                    out.write(body);
                    out.flush();
                    s.getInputStream().read();
                } catch (IOException ignored) {
                    // as above
                }
            });
            t.start();
            ExerciseClient client = new ExerciseClient(erring.getLocalPort(), "u", "db");
            assertThatThrownBy(client::round).isInstanceOf(IOException.class).hasMessageContaining("no such user");
            t.join(5000);
        }
    }
}
