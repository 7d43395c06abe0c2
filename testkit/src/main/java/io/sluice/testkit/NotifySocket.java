package io.sluice.testkit;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * systemd's side of {@code Type=notify}: a unix datagram socket in the abstract namespace whose
 * {@link #address()} goes into a service's {@code NOTIFY_SOCKET}. Abstract names belong to the
 * network namespace, so a service in a {@link ThrowawayRoot} reaches it too. The JDK has no unix
 * datagram sockets, hence Netty's native socket. Not thread-safe.
 */
public final class NotifySocket implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

    private final Socket socket;
    private final String name;
    private final List<String> received = new ArrayList<>();

    private NotifySocket(Socket socket, String name) {
        this.socket = socket;
        this.name = name;
    }

    public static NotifySocket bind() {
        Epoll.ensureAvailability();
        String name = "sluice-testkit-notify-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
        Socket socket = Socket.newSocketDomainDgram();
        try {
            socket.bind(new DomainSocketAddress("\0" + name));
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot bind abstract unix datagram socket @" + name, e);
        }
        return new NotifySocket(socket, name);
    }

    /** The value for NOTIFY_SOCKET. */
    public String address() {
        return "@" + name;
    }

    /** Waits until a datagram with the line {@code line} arrived; returns that datagram. */
    public String await(String line, Duration timeout) {
        String[] found = new String[1];
        Await.until(timeout, () -> {
            drain();
            found[0] = received.stream().filter(d -> d.lines().anyMatch(line::equals)).findFirst().orElse(null);
            return found[0] != null;
        }, "a notification with " + line + " on " + address());
        return found[0];
    }

    /** Forgets every datagram received so far (e.g. before a service starts again). */
    public void clear() {
        drain();
        received.clear();
    }

    /** Every datagram received so far. */
    public List<String> received() {
        drain();
        return List.copyOf(received);
    }

    private void drain() {
        ByteBuffer buf = ByteBuffer.allocateDirect(4096);
        try {
            DomainDatagramSocketAddress from;
            while ((from = socket.recvFromDomainSocket(buf, 0, buf.capacity())) != null) {
                byte[] bytes = new byte[from.receivedAmount()];
                buf.get(0, bytes);
                received.add(new String(bytes, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + address(), e);
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a bound datagram socket does not fail in practice
        }
    }
}
