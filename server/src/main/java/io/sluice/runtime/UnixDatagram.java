package io.sluice.runtime;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Datagrams to one unix socket address, through Netty's native socket (the JDK has unix stream
 * channels only): systemd's NOTIFY_SOCKET ({@link #send(byte[], byte[])}, once, on a fresh
 * socket) and syslog's {@code /dev/log} ({@link SyslogSocket}, one socket kept open). Netty's
 * socket is non-blocking, so a receiver whose queue is full makes {@link #send(byte[])} fail
 * instead of stalling the caller. The socket is opened at the first datagram and again after an
 * error. Not thread-safe.
 */
final class UnixDatagram implements AutoCloseable {
    /** sizeof(sockaddr_un.sun_path) on Linux. */
    static final int MAX_ADDRESS = 108;

    private final byte[] address;
    private Socket socket;
    private ByteBuffer buf; // reused: a direct buffer per datagram would leave freeing them to the GC

    UnixDatagram(byte[] address) {
        this.address = address;
    }

    /** One datagram to {@code address} on a socket of its own. */
    static void send(byte[] address, byte[] datagram) throws IOException {
        try (UnixDatagram once = new UnixDatagram(address)) {
            once.send(datagram);
        }
    }

    /** Sends {@code datagram} whole, or throws; the socket is closed after an error. */
    void send(byte[] datagram) throws IOException {
        if (!Epoll.isAvailable()) {
            throw new IOException("unix datagram sockets need Linux native epoll (" + Epoll.unavailabilityCause() + ")");
        }
        if (buf == null || buf.capacity() < datagram.length) {
            buf = ByteBuffer.allocateDirect(Math.max(datagram.length, 1024));
        }
        buf.clear();
        buf.put(datagram).flip();
        int sent;
        try {
            if (socket == null) {
                socket = Socket.newSocketDomainDgram();
            }
            sent = socket.sendToDomainSocket(buf, 0, datagram.length, address);
        } catch (IOException | RuntimeException e) {
            // Netty reports a socket it cannot create (EMFILE) unchecked; callers expect an IOException
            close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        if (sent != datagram.length) {
            throw new IOException("sent " + sent + " of " + datagram.length + " bytes (the receiver's queue is full)");
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a datagram socket fails only if the fd is already gone
            }
            socket = null;
        }
    }
}
