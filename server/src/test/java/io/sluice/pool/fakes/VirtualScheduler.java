package io.sluice.pool.fakes;

import io.sluice.util.Clock;
import io.sluice.util.Scheduler;
import java.util.PriorityQueue;

/** Virtual time for engine tests: a clock plus a (time, seq)-ordered task queue, run by the test thread. */
public final class VirtualScheduler implements Clock, Scheduler {
    private record Task(long time, long seq, Runnable body, boolean[] cancelled) { }

    private final PriorityQueue<Task> queue = new PriorityQueue<>((a, b) ->
            a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
    /** The wall clock's reading at the start: 2026-11-30 10:00:00 UTC. */
    public static final long EPOCH_MILLIS = 1_796_032_800_000L;
    private static final long START_NANOS = 1_000_000_000L;
    private long now = START_NANOS;
    private long seq;
    private int ran;

    @Override
    public long nanoTime() {
        return now;
    }

    /** The wall clock moves with the virtual one, from {@link #EPOCH_MILLIS} at the start. */
    @Override
    public long currentTimeMillis() {
        return EPOCH_MILLIS + (now - START_NANOS) / 1_000_000L;
    }

    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        long d = Math.max(0, delayNanos);
        long at = d > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + d;
        boolean[] cancelled = {false};
        queue.add(new Task(at, seq++, task, cancelled));
        return () -> cancelled[0] = true;
    }

    @Override
    public void execute(Runnable task) {
        schedule(task, 0);
    }

    /** Runs every task due now, including ones they add for now. */
    public void runUntilIdle() {
        runUntil(now);
    }

    /** Moves time forward by {@code nanos}, running due tasks in order. */
    public void advance(long nanos) {
        runUntil(now + nanos);
    }

    public void advanceMillis(long ms) {
        advance(ms * 1_000_000L);
    }

    /** Runs tasks until none is left before {@code limitNanos} from now; time stops at the last task run. */
    public void runAll(long limitNanos) {
        long end = now + limitNanos;
        Task t;
        while ((t = queue.peek()) != null && t.time <= end) {
            queue.poll();
            now = Math.max(now, t.time);
            if (!t.cancelled[0]) {
                ran++;
                t.body.run();
            }
        }
    }

    private void runUntil(long until) {
        Task t;
        while ((t = queue.peek()) != null && t.time <= until) {
            queue.poll();
            now = Math.max(now, t.time);
            if (!t.cancelled[0]) {
                ran++;
                t.body.run();
            }
        }
        now = Math.max(now, until);
    }

    /** Tasks run so far (cancelled ones are not run). */
    public int ran() {
        return ran;
    }

    /** Tasks not run yet, cancelled ones included. */
    public int queued() {
        return queue.size();
    }
}
