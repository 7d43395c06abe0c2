package io.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The listeners accept on the clients' loop. A long turn of that loop (hundreds of busy
 * connections) must not leave the accept queue unserved: once the turn has run for a
 * millisecond, each read's start drains it, at most once a millisecond. Without the drain, connects beyond listen_backlog wait for a SYN
 * retransmission (1 s) until the turn ends; with it they complete at once.
 */
class ListenersAcceptDrainTest {
    private static final int BACKLOG = 4;
    private static final int CLIENTS = 3 * (BACKLOG + 1);

    @Test
    void readsInALongTurnDrainTheAcceptQueue() throws Exception {
        // a stall of the whole (shared) machine can time out one connect whatever the loop does,
        // as in one full build at stop 41 (a 10 s run of a 3 s test): one clean turn in three suffices,
        // where the control below overflows the queue every time
        LongTurn turn = longTurn(true);
        for (int retry = 0; retry < 2 && turn.timedOut > 0; retry++) {
            turn = longTurn(true);
        }
        assertThat(turn.timedOut).as("connects that waited for the loop's turn to end").isZero();
        assertThat(turn.initialized.get()).as("accepted channels set up after the turn").isEqualTo(CLIENTS);
    }

    @Test
    void withoutReadsALongTurnOverflowsTheQueue() throws Exception {
        // the control: the same turn with no read in it leaves the queue full
        LongTurn turn = longTurn(false);
        assertThat(turn.timedOut).as("connects that waited for the loop's turn to end").isPositive();
    }

    @Test
    void shortTurnsDoNotDrain() throws Exception {
        // a lone busy client: one read a turn, turns well apart; epoll reports the listener at the
        // next wake-up, so a drain there would only be failing accept() calls
        assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "the drain is for native epoll listeners");
        Transport transport = new Transport(Transport.Kind.EPOLL);
        EventLoopGroup group = transport.newGroup(1);
        Listeners listeners = new Listeners(group, transport, line -> { }, line -> { }, line -> { });
        try {
            listeners.bind(List.of("127.0.0.1"), 0, BACKLOG, false, () -> new TcpTuning(false, 0, 0, 0, 0, 0),
                    null, 0, null, true, (Channel ch, Boolean unix) -> { });
            RecvByteBufAllocator.Handle read = listeners.fairReads().newHandle();
            EmbeddedChannel someConnection = new EmbeddedChannel();
            SingleThreadEventLoop loop = (SingleThreadEventLoop) group.next();
            for (int turn = 0; turn < 5; turn++) {
                CompletableFuture<Void> turnOver = new CompletableFuture<>();
                loop.execute(() -> {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // longer than the interval
                    read.reset(someConnection.config());
                    loop.executeAfterEventLoopIteration(() -> turnOver.complete(null));
                });
                turnOver.get(10, TimeUnit.SECONDS); // the next task comes in a turn of its own
            }
            long shortTurns = group.next().submit(listeners::acceptDrains).get(10, TimeUnit.SECONDS);
            group.next().submit(() -> {
                read.reset(someConnection.config());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                read.reset(someConnection.config());
            }).get(10, TimeUnit.SECONDS);
            long longTurn = group.next().submit(listeners::acceptDrains).get(10, TimeUnit.SECONDS);
            assertThat(shortTurns).as("drains in turns of one read").isZero();
            assertThat(longTurn).as("drains once a turn has run for 2 ms").isEqualTo(1);
        } finally {
            listeners.closeAll();
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }

    private record LongTurn(int timedOut, AtomicInteger initialized) {
    }

    private static LongTurn longTurn(boolean reads) throws Exception {
        assumeTrue(io.netty.channel.epoll.Epoll.isAvailable(), "the drain is for native epoll listeners");
        Transport transport = new Transport(Transport.Kind.EPOLL);
        EventLoopGroup group = transport.newGroup(1);
        AtomicInteger initialized = new AtomicInteger();
        List<Socket> clients = new ArrayList<>();
        Listeners listeners = new Listeners(group, transport, line -> { }, line -> { }, line -> { });
        try {
            listeners.bind(List.of("127.0.0.1"), 0, BACKLOG, false, () -> new TcpTuning(false, 0, 0, 0, 0, 0),
                    null, 0, null, true, (Channel ch, Boolean unix) -> initialized.incrementAndGet());
            int port = listeners.tcpPorts().get(0);
            RecvByteBufAllocator.Handle read = listeners.fairReads().newHandle();
            EmbeddedChannel someConnection = new EmbeddedChannel();
            CompletableFuture<Integer> turnOver = new CompletableFuture<>();
            group.next().execute(() -> {
                // one long turn: the connects happen while the loop is in here
                int timedOut = 0;
                try {
                    CompletableFuture<Integer> connects = CompletableFuture.supplyAsync(() -> connectAll(port, clients));
                    while (!connects.isDone()) {
                        if (reads) {
                            read.reset(someConnection.config());
                        }
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // relaying, as it were
                    }
                    timedOut = connects.join();
                } finally {
                    turnOver.complete(timedOut);
                }
            });
            int timedOut = turnOver.get(30, TimeUnit.SECONDS);
            if (reads) {
                awaitInitialized(initialized);
            }
            return new LongTurn(timedOut, initialized);
        } finally {
            for (Socket s : clients) {
                s.close();
            }
            listeners.closeAll();
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Connects CLIENTS sockets, one every 2 ms (a burst spread over the turn, as clients arrive);
     * how many did not complete within 300 ms.
     */
    private static int connectAll(int port, List<Socket> clients) {
        int timedOut = 0;
        for (int i = 0; i < CLIENTS; i++) {
            Socket s = new Socket();
            synchronized (clients) {
                clients.add(s);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            try {
                s.connect(new InetSocketAddress("127.0.0.1", port), 300);
            } catch (SocketTimeoutException e) {
                timedOut++;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return timedOut;
    }

    private static void awaitInitialized(AtomicInteger initialized) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (initialized.get() < CLIENTS && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
