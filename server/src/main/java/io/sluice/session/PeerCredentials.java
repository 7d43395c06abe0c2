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
        try {
            if (ch instanceof IoUringDomainSocketChannel d) {
                return d.peerCredentials().uid();
            }
            if (ch instanceof EpollDomainSocketChannel d) {
                return d.peerCredentials().uid();
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    /** The peer's process id, or 0 when unknown or not a unix socket (SHOW CLIENTS remote_pid). */
    static int pidOf(Channel ch) {
        try {
            if (ch instanceof IoUringDomainSocketChannel d) {
                return d.peerCredentials().pid();
            }
            if (ch instanceof EpollDomainSocketChannel d) {
                return d.peerCredentials().pid();
            }
        } catch (IOException e) {
            return 0;
        }
        return 0;
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
