package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * listen_addr as PgBouncer binds it: an address that cannot be bound is a WARNING in its words
 * and the others serve; a name that does not resolve, or nothing bound at all, fails the start;
 * a handover successor (must bind all) fails on any address.
 */
class ListenersBindTest {
    // native sockets where the system has them: only they serve the unix socket
    private final Transport transport = new Transport(io.netty.channel.epoll.Epoll.isAvailable()
            ? Transport.Kind.EPOLL : Transport.Kind.NIO);
    private final EventLoopGroup group = transport.newGroup(1);
    private final List<String> warnings = new ArrayList<>();
    private final List<String> infos = new ArrayList<>();
    private final Listeners listeners = new Listeners(group, transport, line -> { }, warnings::add, infos::add);
    @TempDir
    Path tmp;

    @AfterEach
    void stop() {
        listeners.closeAll().join();
        group.shutdownGracefully();
    }

    private void bind(List<String> addrs, int port, String unixDir, boolean mustBindAll) throws IOException {
        bind(listeners, addrs, port, unixDir, false, mustBindAll);
    }

    /** {@code l} binds with no TCP tuning, a socket mode of 0777, and closes whatever connects. */
    private static void bind(Listeners l, List<String> addrs, int port, String unixDir, boolean handover,
                             boolean mustBindAll) throws IOException {
        l.bind(addrs, port, 16, handover, () -> new TcpTuning(false, 0, 0, 0, 0, 0), unixDir, 0777, null,
                mustBindAll, (Channel ch, Boolean unix) -> ch.close());
    }

    @Test
    void anAddressInUseIsAWarningAndTheOthersServe() throws Exception {
        try (ServerSocket taken = takenPort()) {
            int port = taken.getLocalPort();
            bind(List.of("127.0.0.1", "127.0.0.2"), port, null, false);
            assertThat(warnings).containsExactly("cannot listen on 127.0.0.1:" + port + ": bind(): Address already in use");
            assertThat(infos).containsExactly("listening on 127.0.0.2:" + port);
            assertThat(listeners.tcpPorts()).containsExactly(port);
        }
    }

    @Test
    void nothingBoundFailsTheStart() throws Exception {
        try (ServerSocket taken = takenPort()) {
            assertThatThrownBy(() -> bind(List.of("127.0.0.1"), taken.getLocalPort(), null, false))
                    .isInstanceOf(IOException.class).hasMessage("nowhere to listen on");
            assertThat(warnings).hasSize(1);
        }
    }

    @Test
    void aNameThatDoesNotResolveFailsInGetaddrinfosWords() {
        assertThatThrownBy(() -> bind(List.of("nosuchhost.invalid"), 6432, null, false))
                .isInstanceOf(IOException.class)
                .hasMessage("getaddrinfo('nosuchhost.invalid', '6432') = Name or service not known [-2]");
    }

    @Test
    void aHandoverSuccessorFailsOnAnyAddress() throws Exception {
        try (ServerSocket taken = takenPort()) {
            assertThatThrownBy(() -> bind(List.of("127.0.0.2", "127.0.0.1"), taken.getLocalPort(), null, true))
                    .isInstanceOf(IOException.class);
            assertThat(listeners.tcpPorts()).as("what was bound is unbound again").isEmpty();
        }
    }

    @Test
    void aUnixSocketDirThatDoesNotExistIsAWarning() throws Exception {
        assumeTrue(transport.nativeSockets(), "unix sockets need a native transport");
        Path missing = tmp.resolve("gone");
        try (ServerSocket taken = takenPort()) {
            int port = taken.getLocalPort();
            bind(List.of("127.0.0.2"), port, missing.toString(), false);
            assertThat(warnings).singleElement().asString()
                    .startsWith("cannot listen on unix:" + missing + "/.s.PGSQL." + port + ": bind(): ");
            assertThat(listeners.tcpPorts()).containsExactly(port);
        }
    }

    /** A start script that sees the port answer, or the log's "listening on", finds the socket file. */
    @Test
    void theUnixSocketIsInPlaceBeforeTheFirstListeningLine() throws Exception {
        assumeTrue(transport.nativeSockets(), "unix sockets need a native transport");
        List<String> seen = new ArrayList<>();
        try (ServerSocket taken = takenPort()) {
            int port = taken.getLocalPort(); // taken on 127.0.0.1 only
            Path socket = tmp.resolve(".s.PGSQL." + port);
            Listeners l = new Listeners(group, transport, line -> { }, warnings::add,
                    line -> seen.add(line + (Files.exists(socket) ? ", socket there" : ", no socket")));
            try {
                bind(l, List.of("127.0.0.2"), port, tmp.toString(), false, false);
                assertThat(seen).containsExactly("listening on 127.0.0.2:" + port + ", socket there",
                        "listening on unix:" + socket + ", socket there");
            } finally {
                l.closeAll().join();
            }
        }
    }

    /** The log gives each TCP address in listen_addr's order, then the unix socket, as PgBouncer's does. */
    @Test
    void theLogFollowsTheAddressesThenTheUnixSocket() throws Exception {
        assumeTrue(transport.nativeSockets(), "unix sockets need a native transport");
        List<String> log = new ArrayList<>();
        try (ServerSocket taken = takenPort()) {
            int port = taken.getLocalPort(); // taken on 127.0.0.1 only
            Listeners l = new Listeners(group, transport, line -> { }, line -> log.add("WARNING " + line),
                    line -> log.add("LOG " + line));
            try {
                bind(l, List.of("127.0.0.2", "127.0.0.1"), port, tmp.toString(), false, false);
                assertThat(log).containsExactly("LOG listening on 127.0.0.2:" + port,
                        "WARNING cannot listen on 127.0.0.1:" + port + ": bind(): Address already in use",
                        "LOG listening on unix:" + tmp.resolve(".s.PGSQL." + port));
            } finally {
                l.closeAll().join();
            }
        }
    }

    /** The successor binds the unix socket first, but only takes the path once every port is bound. */
    @Test
    void aHandoverSuccessorThatCannotBindAPortLeavesTheOldSocketInPlace() throws Exception {
        assumeTrue(transport.nativeSockets(), "unix sockets need a native transport");
        try (ServerSocket taken = takenPort()) {
            int port = taken.getLocalPort();
            Path socket = tmp.resolve(".s.PGSQL." + port);
            bind(List.of(), port, tmp.toString(), false);
            Object oldFile = UnixSocketFile.fileKey(socket);
            Listeners successor = new Listeners(group, transport, line -> { }, line -> { }, line -> { });
            assertThatThrownBy(() -> bind(successor, List.of("127.0.0.1"), port, tmp.toString(), true, true))
                    .isInstanceOf(IOException.class);
            successor.closeAll().join();
            assertThat(UnixSocketFile.fileKey(socket)).as("the old process's socket file").isEqualTo(oldFile);
            assertThat(tmp.toFile().list()).as("the successor's bound name is gone")
                    .containsExactly(socket.getFileName().toString());
        }
    }

    /** A listening socket on 127.0.0.1 at a port below 32768, where no outgoing connection's port can land. */
    private static ServerSocket takenPort() throws IOException {
        for (int i = 0; i < 200; i++) {
            try {
                return new ServerSocket(20000 + ThreadLocalRandom.current().nextInt(12000), 1,
                        InetAddress.getByName("127.0.0.1"));
            } catch (BindException busy) {
                // try another
            }
        }
        throw new IOException("no free port below 32768");
    }
}
