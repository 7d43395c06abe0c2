package io.sluice.net;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * One read of at most 64 KiB per channel per event-loop turn. Netty's default of 16 reads a turn
 * let one connection streaming large rows or COPY data hold the loop for a megabyte's worth of
 * relaying before any other client was looked at: during 1 GiB of 1 MiB rows a bystander's
 * {@code select 1} took a median 0.47 ms instead of PgBouncer's 0.09 (bench/large-rows.sh); at one
 * read a turn, 0.09 ms against 0.07, with the same relay speed. Small messages are unaffected:
 * they arrive whole in the first read.
 *
 * <p>Each read first runs {@code beforeEachRead} ({@link AcceptDrain}: the accept queue gets its
 * turn in a long loop turn too).
 */
public final class FairReads implements RecvByteBufAllocator {
    private static final RecvByteBufAllocator ONE_READ_A_TURN = new AdaptiveRecvByteBufAllocator().maxMessagesPerRead(1);

    private final Runnable beforeEachRead;

    public FairReads(Runnable beforeEachRead) {
        this.beforeEachRead = beforeEachRead;
    }

    /** Applies the one-read-a-turn allocator to a client or server connection. */
    public void apply(Channel ch) {
        ch.config().setRecvByteBufAllocator(this);
    }

    @Override
    public Handle newHandle() {
        return new HookedHandle((ExtendedHandle) ONE_READ_A_TURN.newHandle(), beforeEachRead);
    }

    /** Netty's handle, with the hook at the start of each read (reset). */
    private static final class HookedHandle extends DelegatingHandle implements ExtendedHandle {
        private final ExtendedHandle delegate;
        private final Runnable beforeEachRead;

        HookedHandle(ExtendedHandle delegate, Runnable beforeEachRead) {
            super(delegate);
            this.delegate = delegate;
            this.beforeEachRead = beforeEachRead;
        }

        @Override
        public void reset(ChannelConfig config) {
            beforeEachRead.run();
            super.reset(config);
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return delegate.continueReading(maybeMoreDataSupplier);
        }
    }
}
