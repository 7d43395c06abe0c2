package io.sluice.util;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The one sequence that numbers client and server connections, as PgBouncer numbers all its
 * sockets from one counter: {@code C-} and {@code S-} log prefixes and the {@code id} column of
 * SHOW CLIENTS / SHOW SERVERS never repeat a number across the two kinds, so an id alone names
 * one connection in a log search.
 */
public final class SocketIds {
    private static final AtomicLong NEXT = new AtomicLong(1);

    private SocketIds() {
    }

    public static long next() {
        return NEXT.getAndIncrement();
    }
}
