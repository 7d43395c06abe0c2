package io.sluice.session;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.sluice.auth.UnixNames;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Unix-socket peer credentials (SO_PEERCRED), for the console's own-uid rule and peer auth. */
final class PeerCredentials {
    private static final Path PASSWD = Path.of("/etc/passwd");

    private PeerCredentials() {
    }

    /** The peer's uid, or -1 when unknown or not a unix socket. */
    static int uidOf(Channel ch) {
        io.netty.channel.unix.PeerCredentials c = of(ch);
        return c == null ? -1 : c.uid();
    }

    /** The peer's process id, or 0 when unknown or not a unix socket (SHOW CLIENTS remote_pid). */
    static int pidOf(Channel ch) {
        io.netty.channel.unix.PeerCredentials c = of(ch);
        return c == null ? 0 : c.pid();
    }

    /** SO_PEERCRED of a unix-socket channel (io_uring or epoll), or null. */
    private static io.netty.channel.unix.PeerCredentials of(Channel ch) {
        try {
            if (ch instanceof IoUringDomainSocketChannel d) {
                return d.peerCredentials();
            }
            if (ch instanceof EpollDomainSocketChannel d) {
                return d.peerCredentials();
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /**
     * The peer's Unix user name as getpwuid() would give it from /etc/passwd, or null when the
     * uid is unknown (PgBouncer then rejects a peer login too).
     */
    static String userNameOf(Channel ch) {
        int uid = uidOf(ch);
        if (uid < 0) {
            return null;
        }
        try {
            return UnixNames.nameOf(uid, Files.readString(PASSWD));
        } catch (IOException e) {
            return null;
        }
    }
}
