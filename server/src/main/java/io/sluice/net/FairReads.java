package io.sluice.net;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.RecvByteBufAllocator;

/**
 * One read of at most 64 KiB per channel per event-loop turn. Netty's default of 16 reads a turn
 * let one connection streaming large rows or COPY data hold the loop for a megabyte's worth of
 * relaying before any other client was looked at: during 1 GiB of 1 MiB rows a bystander's
 * {@code select 1} took a median 0.47 ms instead of PgBouncer's 0.09 (bench/large-rows.sh); at one
 * read a turn, 0.09 ms against 0.07, with the same relay speed. Small messages are unaffected:
 * they arrive whole in the first read.
 */
public final class FairReads {
    private static final RecvByteBufAllocator ONE_READ_A_TURN = new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1);

    private FairReads() {
    }

    /** Applies the one-read-a-turn allocator to a client or server connection. */
    public static void apply(Channel ch) {
        ch.config().setRecvByteBufAllocator(ONE_READ_A_TURN);
    }
}
