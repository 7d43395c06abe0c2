package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringServerSocketChannel;

/**
 * PgBouncer's {@code tcp_defer_accept} (on by default on Linux): TCP_DEFER_ACCEPT on a TCP
 * listening socket, so that the kernel hands a connection over only once the client has sent
 * something (or after 45 seconds or more), and the pooler is woken once, with the client's first
 * message already there, instead of for the bare connection and again for that message. PgBouncer
 * sets 45 seconds when on and 0 when off, on its TCP listeners only, and again on each listener
 * when RELOAD flips the setting. A connection that never sends anything is then not the pooler's
 * (not in SHOW CLIENTS, not under client_login_timeout) until the kernel gives it up or hands it
 * over. Only the native transports have the option; on NIO the setting does nothing, as on a
 * system without TCP_DEFER_ACCEPT.
 */
final class DeferAccept {
    /** PgBouncer's fixed value when tcp_defer_accept is on. */
    static final int SECONDS = 45;

    private DeferAccept() {
    }

    /** Turns the option on or off on {@code listener}, a TCP listening channel; others are left alone. */
    static void set(Channel listener, boolean on) {
        int seconds = on ? SECONDS : 0;
        if (listener instanceof IoUringServerSocketChannel) {
            listener.config().setOption(IoUringChannelOption.TCP_DEFER_ACCEPT, seconds);
        } else if (listener instanceof EpollServerSocketChannel) {
            listener.config().setOption(EpollChannelOption.TCP_DEFER_ACCEPT, seconds);
        }
    }
}
