package io.sluice.session;

import io.netty.channel.Channel;

/**
 * Whether Sluice reads from a client socket. Several independent reasons may each hold reading
 * off (a full wait queue, a server that takes no more bytes, a console command in progress);
 * the socket reads again only when none holds. Event loop only.
 */
final class ReadGate {
    /** The client queued more than {@link Relay#PENDING_LIMIT} while waiting for a server. */
    static final int WAIT_QUEUE = 1;
    /** The leased server's outbound buffer is above its high water mark. */
    static final int SERVER_FULL = 2;
    /** A console command is running; its reply must go out before the next is read. */
    static final int CONSOLE = 4;

    private final Channel channel;
    private int holds;

    ReadGate(Channel channel) {
        this.channel = channel;
    }

    void hold(int reason) {
        if (holds == 0) {
            channel.config().setAutoRead(false);
        }
        holds |= reason;
    }

    void release(int reason) {
        if ((holds & reason) == 0) {
            return;
        }
        holds &= ~reason;
        if (holds == 0 && channel.isActive()) {
            channel.config().setAutoRead(true);
        }
    }

    boolean held(int reason) {
        return (holds & reason) != 0;
    }
}
