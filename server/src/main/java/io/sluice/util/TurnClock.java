package io.sluice.util;

/**
 * The system clock, read once per turn of one event loop: every callback of a batch of I/O
 * completions sees the time of the batch's first reading, as PgBouncer's code reads its loop's
 * cached time. A transaction asks the time about ten times (timers, wait and query times, a
 * pool's idle and lifetime checks, request_time); here that is one reading of each clock, the
 * monotonic one and the wall clock, per batch. Outside a turn, and on any thread but the loop's,
 * it reads the system clocks. One per loop.
 */
public final class TurnClock implements Clock {
    private Thread loop;
    private boolean inTurn;
    private boolean read;
    private long now;
    private long wallNow;

    /** The loop's thread, before it runs the callbacks of one batch of completions. */
    public void turnStarted() {
        loop = Thread.currentThread();
        inTurn = true;
        read = false; // read at the first ask: the turn may begin with a wait for I/O
    }

    /** The loop's thread, after the batch: tasks and timers run between turns read afresh. */
    public void turnEnded() {
        inTurn = false;
    }

    @Override
    public long nanoTime() {
        return cached() ? now : System.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
        return cached() ? wallNow : System.currentTimeMillis();
    }

    /** True on the loop's thread during a turn, with both clocks read at the turn's first ask. */
    private boolean cached() {
        if (!inTurn || Thread.currentThread() != loop) {
            return false;
        }
        if (!read) {
            now = System.nanoTime();
            wallNow = System.currentTimeMillis();
            read = true;
        }
        return true;
    }
}
