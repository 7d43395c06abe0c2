package io.sluice.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.Socket;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Accepts queued connections in the middle of a long event-loop turn.
 *
 * <p>The listeners live on the loop that serves the clients, so a login costs one wake-up, as in
 * PgBouncer (a thread of its own for accept() cost a second wake-up and a hand-over per login:
 * connect to ReadyForQuery took a median 0.16–0.18 ms against 0.11–0.13 ms on the clients' loop,
 * PgBouncer 0.09). But a turn
 * of that loop under load relays for every ready connection before epoll reports the listener
 * again (5–15 ms at 100 busy clients), and a burst of connects in that time overflowed a 128-deep
 * accept queue where PgBouncer's shorter turns did not. So the loop's reads call
 * {@link #beforeRead()}, and once a turn has run for a millisecond, at most once a millisecond, it
 * takes what waits in the queues, as Netty's own accept would. The accepted channels are
 * registered after the current read. Short turns never drain: epoll reports the listeners at the
 * next wake-up anyway, and a drain there is two failing accept() calls (one per listener) for
 * every other transaction of a lone client.
 */
public final class AcceptDrain {
    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private volatile Listener[] listeners = new Listener[0];
    private long lastDrain = System.nanoTime();
    private SingleThreadEventLoop clientsLoop;
    private boolean inTurn;
    private long turnStart;
    private final Runnable turnEnded = () -> inTurn = false;
    private long drains;

    /** One listening socket: its channel, how to make a channel of an accepted fd, and its handler. */
    private record Listener(Channel channel, Socket socket, boolean unix, ChannelHandler childHandler, int max) {
    }

    /**
     * Drains {@code listener} too from now on, when it runs on native epoll and on {@code loop};
     * {@code childHandler} is what the listener's bootstrap gives each accepted channel, and
     * {@code max} how many connections one drain takes at most.
     */
    synchronized void add(Channel listener, EventLoop loop, ChannelHandler childHandler, int max) {
        boolean unix = listener instanceof EpollServerDomainSocketChannel;
        if (!(unix || listener instanceof EpollServerSocketChannel) || listener.eventLoop() != loop) {
            return;
        }
        if (clientsLoop == null && loop instanceof SingleThreadEventLoop l) {
            clientsLoop = l; // published to the loop by the volatile write of listeners below
        }
        // a second handle on the listener's fd, for accept() only: it is never closed (Netty's
        // FileDescriptor has no finalizer either), the channel owns the fd
        Socket socket = new Socket(((io.netty.channel.unix.UnixChannel) listener).fd().intValue());
        Listener[] next = java.util.Arrays.copyOf(listeners, listeners.length + 1);
        next[listeners.length] = new Listener(listener, socket, unix, childHandler, max);
        listeners = next;
    }

    /** Stops draining {@code listener} (it is being closed). */
    synchronized void remove(Channel listener) {
        listeners = java.util.Arrays.stream(listeners).filter(l -> l.channel != listener).toArray(Listener[]::new);
    }

    /** Called on the clients' loop before each read of a connection. */
    public void beforeRead() {
        Listener[] ls = listeners;
        if (ls.length == 0) {
            return;
        }
        long now = System.nanoTime();
        if (!inTurn) {
            // the turn's first read; the loop runs its tail tasks when the turn ends
            inTurn = true;
            turnStart = now;
            clientsLoop.executeAfterEventLoopIteration(turnEnded);
            return;
        }
        if (now - turnStart < INTERVAL_NANOS || now - lastDrain < INTERVAL_NANOS) {
            return;
        }
        lastDrain = now;
        drains++;
        for (Listener l : ls) {
            drain(l);
        }
    }

    /** How many times the queues were drained (read on the loop). */
    long drains() {
        return drains;
    }

    private static void drain(Listener l) {
        // a closed listener's fd number may belong to another socket by now; a paused one
        // (AcceptFailures after EMFILE) is left alone until it resumes
        if (!l.channel.isOpen() || !l.channel.config().isAutoRead()) {
            return;
        }
        byte[] address = new byte[26];
        EventLoop loop = l.channel.eventLoop();
        for (int i = 0; i < l.max; i++) {
            int fd;
            try {
                fd = l.socket.accept(address);
            } catch (IOException e) {
                l.channel.pipeline().fireExceptionCaught(e);
                return;
            }
            if (fd == -1) {
                return; // queue empty
            }
            Channel child = l.unix ? new EpollDomainSocketChannel(fd) : new EpollSocketChannel(fd);
            child.pipeline().addLast(l.childHandler);
            loop.execute(() -> loop.register(child).addListener(f -> {
                if (!f.isSuccess()) {
                    child.unsafe().closeForcibly();
                }
            }));
        }
    }
}
