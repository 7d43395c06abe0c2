package io.sluice.testkit;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A unix datagram socket that keeps what it receives: systemd's side of {@code Type=notify}
 * ({@link #bind()}, a name in the abstract namespace whose {@link #address()} goes into a
 * service's {@code NOTIFY_SOCKET}; abstract names belong to the network namespace, so a service
 * in a {@link ThrowawayRoot} reaches it too), or a syslog daemon's {@code /dev/log}
 * ({@link #bindPath}). The JDK has no unix datagram sockets, hence Netty's native socket. Not
 * thread-safe.
 */
public final class DatagramInbox implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

    private final Socket socket;
    private final String address;
    private final Path path;
    private final List<String> received = new ArrayList<>();

    private DatagramInbox(Socket socket, String address, Path path) {
        this.socket = socket;
        this.address = address;
        this.path = path;
    }

    /** A socket in the abstract namespace, for NOTIFY_SOCKET. */
    public static DatagramInbox bind() {
        String name = "sluice-testkit-notify-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
        return new DatagramInbox(bound("\0" + name), "@" + name, null);
    }

    /**
     * A socket at {@code path} that every local user may send to (as syslog's {@code /dev/log});
     * {@link #close()} removes the file.
     */
    public static DatagramInbox bindPath(Path path) {
        Socket socket = bound(path.toString());
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
        } catch (IOException e) {
            closeQuietly(socket);
            deleteQuietly(path);
            throw new UncheckedIOException("cannot open " + path + " to every user", e);
        }
        return new DatagramInbox(socket, path.toString(), path);
    }

    private static Socket bound(String address) {
        Epoll.ensureAvailability();
        Socket socket = Socket.newSocketDomainDgram();
        try {
            socket.bind(new DomainSocketAddress(address));
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot bind unix datagram socket " + address.replace('\0', '@'), e);
        }
        return socket;
    }

    /** The value for NOTIFY_SOCKET, or the path. */
    public String address() {
        return address;
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
        if (path != null) {
            deleteQuietly(path);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a socket file this process made; nothing else to do
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a bound datagram socket does not fail in practice
        }
    }
}
