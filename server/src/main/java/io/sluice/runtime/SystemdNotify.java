package io.sluice.runtime;

import io.sluice.log.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Tells systemd that Sluice is up, as PgBouncer's {@code sd_notify(0, "READY=1")} does, so a
 * {@code Type=notify} unit's {@code systemctl start} returns only once the listeners accept
 * connections. The protocol is one datagram of {@code KEY=value} lines to the unix socket named
 * in {@code $NOTIFY_SOCKET}: a path, or {@code @name} for the abstract namespace. Without that
 * variable (not started by systemd) nothing is sent. A failure is logged and never stops
 * Sluice: systemd then times the start out, which names the problem better than we can.
 *
 * <p>The launcher script stays the JVM's parent (see package doc), so the datagram comes from a
 * child of the unit's main process: the unit needs {@code NotifyAccess=all}.
 */
final class SystemdNotify {
    static final String VARIABLE = "NOTIFY_SOCKET";

    /** Sends one datagram to a unix socket address (sun_path bytes, a leading 0 for abstract). */
    interface Sender {
        void send(byte[] address, byte[] datagram) throws IOException;
    }

    private final String socket;
    private final Sender sender;

    SystemdNotify(String socket, Sender sender) {
        this.socket = socket == null || socket.isEmpty() ? null : socket;
        this.sender = sender;
    }

    /** From this process's environment, sending through the native unix datagram socket. */
    static SystemdNotify fromEnvironment() {
        return from(System.getenv());
    }

    static SystemdNotify from(Map<String, String> env) {
        return new SystemdNotify(env.get(VARIABLE), UnixDatagram::send);
    }

    /** True when systemd asked to be notified. */
    boolean requested() {
        return socket != null;
    }

    /** READY=1: call once every listener is bound. */
    void ready(Log log) {
        notify(log, "READY=1\nSTATUS=accepting connections\n");
    }

    /**
     * READY=1 with MAINPID= for a handover successor: systemd makes {@code mainPid} the unit's
     * main process (it accepts that from any process in the unit's cgroup under
     * NotifyAccess=all), so stop, reload and the unit's state follow the new process.
     */
    void readyAsMainPid(Log log, long mainPid) {
        notify(log, "READY=1\nMAINPID=" + mainPid + "\nSTATUS=accepting connections\n");
    }

    private void notify(Log log, String message) {
        if (socket == null) {
            return;
        }
        byte[] address;
        try {
            address = address(socket);
        } catch (IllegalArgumentException e) {
            log.warning("cannot notify systemd: " + e.getMessage());
            return;
        }
        try {
            sender.send(address, message.getBytes(StandardCharsets.UTF_8));
            log.debug(() -> "notified systemd: " + message.strip().replace('\n', ' '));
        } catch (IOException | RuntimeException | LinkageError e) {
            log.warning("cannot notify systemd at " + socket + ": " + e.getMessage());
        }
    }

    /**
     * The sun_path bytes for a NOTIFY_SOCKET value, as sd_notify(3) reads it: an absolute path,
     * or {@code @} for a name in the abstract namespace (which starts with a 0 byte and is not
     * 0-terminated). Anything else (e.g. systemd 254's {@code vsock:}) is refused.
     */
    static byte[] address(String socket) {
        byte[] name = socket.getBytes(StandardCharsets.UTF_8);
        if (socket.startsWith("@")) {
            name[0] = 0;
        } else if (!socket.startsWith("/")) {
            throw new IllegalArgumentException("unsupported " + VARIABLE + " address '" + socket + "'");
        }
        if (name.length < 2 || name.length > UnixDatagram.MAX_ADDRESS) {
            throw new IllegalArgumentException(VARIABLE + " address '" + socket + "' has a bad length");
        }
        return name;
    }
}
