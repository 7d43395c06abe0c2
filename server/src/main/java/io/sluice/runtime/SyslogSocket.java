package io.sluice.runtime;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;
import io.sluice.config.Settings;
import io.sluice.config.SyslogFacilities;
import io.sluice.log.Log;
import io.sluice.log.Syslog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * {@code syslog = 1}: datagrams to the local syslog socket, {@code /dev/log}, as syslog(3) sends
 * them, through Netty's native socket (the JDK has no unix datagram sockets). The socket is
 * opened at the first line and again after an error, as syslog(3) reconnects. It is non-blocking:
 * when the syslog daemon falls behind and its queue is full, the line is dropped rather than
 * stalling the event loop that wrote it (syslog(3) would block PgBouncer's only thread there).
 * Confined to {@link Log}'s lock.
 */
final class SyslogSocket implements Syslog.Transport {
    static final String PATH = "/dev/log";

    private final byte[] address;
    private Socket socket;
    private ByteBuffer buf; // reused: a direct buffer per line would leave freeing them to the GC

    SyslogSocket(String path) {
        this.address = path.getBytes(StandardCharsets.UTF_8);
    }

    /** Points the log at syslog as {@code settings} say (at start and on every RELOAD), or away from it. */
    static void configure(Log log, Settings settings) {
        log.setSyslog(settings.flag("syslog")
                ? new Syslog(settings.string("syslog_ident"),
                        SyslogFacilities.codeOrDaemon(settings.string("syslog_facility")), new SyslogSocket(PATH))
                : null);
    }

    @Override
    public void send(byte[] datagram) throws IOException {
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
            // Netty reports a socket it cannot create (EMFILE) unchecked; a log line must never throw
            close();
            throw new IOException(new String(address, StandardCharsets.UTF_8) + ": " + e.getMessage(), e);
        }
        if (sent != datagram.length) {
            throw new IOException(new String(address, StandardCharsets.UTF_8) + " is not taking lines (queue full), lines are dropped");
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
