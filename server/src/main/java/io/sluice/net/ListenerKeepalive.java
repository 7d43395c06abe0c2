package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.unix.Socket;
import io.netty.channel.unix.UnixChannel;

import java.io.IOException;

/**
 * SO_KEEPALIVE on a TCP listening socket. Linux copies it to every socket the listener accepts,
 * so setting it once before the bind spares the setsockopt that PgBouncer's tune_socket makes
 * on every login. Set only on a native transport's listener, before it binds, so that no
 * accepted socket predates it; a RELOAD that turns tcp_keepalive off is then set per socket
 * ({@link TcpTuning#apply(Channel, boolean)}).
 */
final class ListenerKeepalive {
    private volatile boolean on;

    /** Turns keepalive on for {@code listener} when {@code keepalive}; call it before the bind. */
    void setBeforeBind(Channel listener, boolean keepalive) {
        if (!keepalive || !(listener instanceof UnixChannel u) || !(u.fd() instanceof Socket s)) {
            return;
        }
        try {
            s.setKeepAlive(true);
            on = true;
        } catch (IOException e) {
            on = false; // each accepted socket gets it as before
        }
    }

    /** Whether the sockets this listener accepts start with keepalive on. */
    boolean on() {
        return on;
    }
}
