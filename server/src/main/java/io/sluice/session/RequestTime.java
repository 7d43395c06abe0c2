package io.sluice.session;

import java.util.function.LongSupplier;

/**
 * A client's request_time for SHOW CLIENTS: when it last sent a message. Taken once per read, not
 * per message, as PgBouncer stamps it from the clock its event loop caches per turn; a pipelined
 * extended-protocol request is five messages in one read. Event loop only.
 */
final class RequestTime {
    private final LongSupplier wallClock;
    private long millis;
    private boolean taken;

    RequestTime(LongSupplier wallClock) {
        this.wallClock = wallClock;
    }

    /** A message from the client: the first of a read sets the time. */
    void message() {
        if (!taken) {
            taken = true;
            millis = wallClock.getAsLong();
        }
    }

    /** The read is over: the next message is a new request. */
    void readEnded() {
        taken = false;
    }

    /** Epoch milliseconds, or 0 when the client sent nothing yet. */
    long millis() {
        return millis;
    }
}
