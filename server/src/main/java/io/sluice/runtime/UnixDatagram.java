package io.sluice.runtime;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One datagram to a unix socket, through Netty's native socket (the JDK has unix stream
 * channels only). A blocking sendto on a fresh AF_UNIX/SOCK_DGRAM socket: this is called once
 * at start-up, off the event loop, so no channel or event loop is needed.
 */
final class UnixDatagram {
    /** sizeof(sockaddr_un.sun_path) on Linux. */
    static final int MAX_ADDRESS = 108;

    private UnixDatagram() {}

    static void send(byte[] address, byte[] datagram) throws IOException {
        if (!Epoll.isAvailable()) {
            throw new IOException("unix datagram sockets need Linux native epoll ("
                    + Epoll.unavailabilityCause() + ")");
        }
        ByteBuffer buf = ByteBuffer.allocateDirect(datagram.length);
        buf.put(datagram).flip();
        Socket socket = Socket.newSocketDomainDgram();
        try {
            int sent = socket.sendToDomainSocket(buf, 0, datagram.length, address);
            if (sent != datagram.length) {
                throw new IOException("sent " + sent + " of " + datagram.length + " bytes");
            }
        } finally {
            socket.close();
        }
    }
}
