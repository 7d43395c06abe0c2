package io.sluice.session;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollDomainSocketChannel;

/** Unix-socket peer uid (SO_PEERCRED), or -1 when unknown or not a unix socket. */
final class PeerCredentials {
    private PeerCredentials() {
    }

    static int uidOf(Channel ch) {
        if (ch instanceof EpollDomainSocketChannel d) {
            try {
                return d.peerCredentials().uid();
            } catch (java.io.IOException e) {
                return -1;
            }
        }
        return -1;
    }
}
