package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import io.sluice.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sd_notify READY=1 over a real AF_UNIX datagram socket: what systemd's side of a
 * {@code Type=notify} unit receives, for path and abstract addresses; nothing without
 * NOTIFY_SOCKET; failures only logged; and Main sends it after the server started.
 */
class SystemdNotifyTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.systemUTC(), 7, new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void readyReachesASocketAtAPath() throws IOException {
        assumeTrue(Epoll.isAvailable(), "needs Linux native epoll");
        Path path = dir.resolve("notify");
        Socket systemd = Socket.newSocketDomainDgram();
        try {
            systemd.bind(new DomainSocketAddress(path.toString()));
            SystemdNotify.from(Map.of("NOTIFY_SOCKET", path.toString())).ready(log);
            assertThat(receive(systemd)).isEqualTo("READY=1\nSTATUS=accepting connections\n");
        } finally {
            systemd.close();
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void readyReachesAnAbstractSocket() throws IOException {
        assumeTrue(Epoll.isAvailable(), "needs Linux native epoll");
        String name = "sluice-notify-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Socket systemd = Socket.newSocketDomainDgram();
        try {
            systemd.bind(new DomainSocketAddress("\0" + name));
            // The kernel lists it as @name: the receiver really sits in the abstract namespace,
            // so the datagram arriving proves the sender mapped '@' to a leading 0 byte, unpadded.
            assertThat(Files.readString(Path.of("/proc/net/unix"))).contains(" @" + name + "\n");
            SystemdNotify.from(Map.of("NOTIFY_SOCKET", "@" + name)).ready(log);
            assertThat(receive(systemd)).startsWith("READY=1\n");
        } finally {
            systemd.close();
        }
    }

    @Test
    void withoutNotifySocketNothingIsSent() {
        List<String> sent = new CopyOnWriteArrayList<>();
        SystemdNotify notify = new SystemdNotify(null, (a, d) -> sent.add(new String(d, StandardCharsets.UTF_8)));
        assertThat(notify.requested()).isFalse();
        notify.ready(log);
        assertThat(new SystemdNotify("", (a, d) -> sent.add("x")).requested()).isFalse();
        assertThat(sent).isEmpty();
    }

    @Test
    void addressesFollowSdNotify() {
        assertThat(SystemdNotify.address("/run/systemd/notify"))
                .isEqualTo("/run/systemd/notify".getBytes(StandardCharsets.US_ASCII));
        assertThat(SystemdNotify.address("@x/y")).containsExactly(0, 'x', '/', 'y');
    }

    @Test
    void unusableAddressesAreLoggedNotThrown() {
        SystemdNotify.from(Map.of("NOTIFY_SOCKET", "vsock:2:1234")).ready(log);
        SystemdNotify.from(Map.of("NOTIFY_SOCKET", "/" + "x".repeat(200))).ready(log);
        SystemdNotify.from(Map.of("NOTIFY_SOCKET", dir.resolve("nobody-listens").toString())).ready(log);
        assertThat(err.toString(StandardCharsets.UTF_8).lines())
                .hasSize(3)
                .allMatch(l -> l.contains(" WARNING cannot notify systemd"));
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unsupported NOTIFY_SOCKET address 'vsock:2:1234'");
    }

    @Test
    void mainNotifiesAfterTheServerStartedAndThePidfileExists() {
        Path pid = dir.resolve("p.pid");
        FakeLifecycle lifecycle = new FakeLifecycle();
        List<String> events = new CopyOnWriteArrayList<>();
        lifecycle.onServing = () -> lifecycle.terminated.complete(0);
        Main main = new Main((config, opts) -> {
            events.add("started");
            return lifecycle;
        }, null, p -> new DaemonConfig(pid, null, false))
                .withLog(log)
                .withStreams(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .withLauncher(new LauncherEnv(Map.of(), ProcessHandle.current()))
                .withoutSignalHandlers()
                .withSystemd(new SystemdNotify("/run/test", (address, datagram) -> events.add(
                        new String(datagram, StandardCharsets.UTF_8).lines().findFirst().orElseThrow()
                                + (Files.exists(pid) ? " with pidfile" : " without pidfile"))));
        assertThat(main.run(new String[] {"x.ini"})).isZero();
        assertThat(events).containsExactly("started", "READY=1 with pidfile");
    }

    private static String receive(Socket socket) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(512);
        // sendto on a unix datagram socket queues synchronously: it is there when ready() returns.
        DomainDatagramSocketAddress from = socket.recvFromDomainSocket(buf, 0, buf.capacity());
        assertThat(from).as("a datagram was queued").isNotNull();
        byte[] bytes = new byte[from.receivedAmount()];
        buf.get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
