package io.sluice.runtime;

import io.sluice.config.Settings;
import io.sluice.config.SyslogFacilities;
import io.sluice.log.Log;
import io.sluice.log.Syslog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code syslog = 1}: datagrams to the local syslog socket, {@code /dev/log}, as syslog(3) sends
 * them ({@link UnixDatagram}: opened at the first line and again after an error, as syslog(3)
 * reconnects). When the syslog daemon falls behind and its queue is full, the line is dropped
 * rather than stalling the event loop that wrote it (syslog(3) would block PgBouncer's only
 * thread there). Confined to {@link Log}'s lock.
 */
final class SyslogSocket implements Syslog.Transport {
    static final String PATH = "/dev/log";

    private final String path;
    private final UnixDatagram socket;

    SyslogSocket(String path) {
        this.path = path;
        this.socket = new UnixDatagram(path.getBytes(StandardCharsets.UTF_8));
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
        try {
            socket.send(datagram);
        } catch (IOException e) {
            throw new IOException(path + ": " + e.getMessage(), e); // the warning names the socket
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
