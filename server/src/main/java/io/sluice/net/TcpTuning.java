package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.internal.PlatformDependent;
import io.sluice.config.Settings;
import jdk.net.ExtendedSocketOptions;

/**
 * PgBouncer's {@code tune_socket}: the options every client and server TCP socket gets.
 * {@code tcp_keepalive} switches SO_KEEPALIVE; {@code tcp_keepidle}/{@code tcp_keepintvl}
 * (seconds) and {@code tcp_keepcnt} override the kernel's defaults when not 0;
 * {@code tcp_user_timeout} (milliseconds, not 0) bounds how long sent data may stay
 * unacknowledged; {@code tcp_socket_buffer} (not 0) sets both kernel buffers. Without them
 * a PostgreSQL behind a silent network partition holds its clients for the kernel's two hours
 * of keepalive or fifteen minutes of retransmissions. TCP_USER_TIMEOUT needs a native transport.
 */
public record TcpTuning(boolean keepalive, int keepIdle, int keepInterval, int keepCount, int userTimeoutMillis,
                        int socketBuffer) {

    public static TcpTuning from(Settings s) {
        return new TcpTuning(s.flag("tcp_keepalive"), s.intValue("tcp_keepidle"), s.intValue("tcp_keepintvl"),
                s.intValue("tcp_keepcnt"), s.intValue("tcp_user_timeout"), s.intValue("tcp_socket_buffer"));
    }

    /** Sets the options on a TCP channel before it connects; a unix socket is left alone. */
    public void apply(Channel ch) {
        apply(ch, false);
    }

    /**
     * Sets the options on a TCP channel as it is accepted; {@code keepaliveInherited}: its
     * listener had SO_KEEPALIVE on when the socket was accepted (see {@link ListenerKeepalive}),
     * so the socket already has it.
     */
    void apply(Channel ch, boolean keepaliveInherited) {
        if (!(ch instanceof SocketChannel)) {
            return;
        }
        ChannelConfig c = ch.config();
        // Netty's socket channels start with TCP_NODELAY on, and a socket starts with its
        // listener's keepalive (none for one we connect): setting either again is a system call
        // per login for nothing
        if (!PlatformDependent.canEnableTcpNoDelayByDefault()) {
            c.setOption(ChannelOption.TCP_NODELAY, true);
        }
        if (keepalive != keepaliveInherited) {
            c.setOption(ChannelOption.SO_KEEPALIVE, keepalive);
        }
        if (socketBuffer > 0) {
            c.setOption(ChannelOption.SO_SNDBUF, socketBuffer);
            c.setOption(ChannelOption.SO_RCVBUF, socketBuffer);
        }
        if (ch instanceof IoUringSocketChannel) {
            if (keepalive) {
                setIfPositive(c, IoUringChannelOption.TCP_KEEPIDLE, keepIdle);
                setIfPositive(c, IoUringChannelOption.TCP_KEEPINTVL, keepInterval);
                setIfPositive(c, IoUringChannelOption.TCP_KEEPCNT, keepCount);
            }
            setIfPositive(c, IoUringChannelOption.TCP_USER_TIMEOUT, userTimeoutMillis);
        } else if (ch instanceof EpollSocketChannel) {
            if (keepalive) {
                setIfPositive(c, EpollChannelOption.TCP_KEEPIDLE, keepIdle);
                setIfPositive(c, EpollChannelOption.TCP_KEEPINTVL, keepInterval);
                setIfPositive(c, EpollChannelOption.TCP_KEEPCNT, keepCount);
            }
            setIfPositive(c, EpollChannelOption.TCP_USER_TIMEOUT, userTimeoutMillis);
        } else if (keepalive) {
            setIfPositive(c, NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE), keepIdle);
            setIfPositive(c, NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL), keepInterval);
            setIfPositive(c, NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPCOUNT), keepCount);
        }
    }

    private static void setIfPositive(ChannelConfig c, ChannelOption<Integer> option, int value) {
        if (value > 0) {
            c.setOption(option, value);
        }
    }
}
