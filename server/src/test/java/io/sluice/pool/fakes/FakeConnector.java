package io.sluice.pool.fakes;

import io.sluice.pool.PoolKey;
import io.sluice.pool.ServerConnector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Connector double: answers after {@code delayNanos} of virtual time (auto mode) or when the
 * test calls {@link #completeNext()}/{@link #failNext} (manual mode, delay &lt; 0). Tracks the
 * peak number of connects in flight and of live backends.
 */
public final class FakeConnector implements ServerConnector {
    private final VirtualScheduler scheduler;
    private long delayNanos;
    private String failSqlState;
    private String failMessage;
    private boolean failRejects;
    private final ArrayDeque<Callback> waiting = new ArrayDeque<>();
    private long nextId = 1;
    public int inflight;
    public int maxInflight;
    public int live;
    public int maxLive;
    public int attempts;
    public final List<FakeServerHandle> handles = new ArrayList<>();

    public FakeConnector(VirtualScheduler scheduler, long delayNanos) {
        this.scheduler = scheduler;
        this.delayNanos = delayNanos;
    }

    public static FakeConnector manual(VirtualScheduler scheduler) {
        return new FakeConnector(scheduler, -1);
    }

    public void delay(long nanos) {
        delayNanos = nanos;
    }

    /** Subsequent automatic answers fail to connect with this error (null sqlState: succeed again). */
    public void failWith(String sqlState, String message) {
        failSqlState = sqlState;
        failMessage = message;
        failRejects = false;
    }

    /** Subsequent automatic answers are login errors from the server (null sqlState: succeed again). */
    public void rejectWith(String sqlState, String message) {
        failWith(sqlState, message);
        failRejects = true;
    }

    public void resetPeaks() {
        maxInflight = inflight;
        maxLive = live;
    }

    @Override
    public void connect(PoolKey key, Callback callback) {
        attempts++;
        inflight++;
        maxInflight = Math.max(maxInflight, inflight);
        if (delayNanos < 0) {
            waiting.add(callback);
        } else {
            scheduler.schedule(() -> answer(callback), delayNanos);
        }
    }

    private void answer(Callback cb) {
        if (failSqlState != null && failRejects) {
            reject(cb, failSqlState, failMessage);
        } else if (failSqlState != null) {
            fail(cb, failSqlState, failMessage);
        } else {
            succeed(cb);
        }
    }

    public int waitingConnects() {
        return waiting.size();
    }

    public FakeServerHandle completeNext() {
        return succeed(waiting.removeFirst());
    }

    /** The oldest manual connect fails to connect (refused, timeout...). */
    public void failNext(String sqlState, String message) {
        fail(waiting.removeFirst(), sqlState, message);
    }

    /** The oldest manual connect gets a login error from the server. */
    public void rejectNext(String sqlState, String message) {
        reject(waiting.removeFirst(), sqlState, message);
    }

    private void reject(Callback cb, String sqlState, String message) {
        inflight--;
        cb.rejected(sqlState, message);
    }

    private FakeServerHandle succeed(Callback cb) {
        inflight--;
        FakeServerHandle h = new FakeServerHandle(nextId++, this);
        handles.add(h);
        live++;
        maxLive = Math.max(maxLive, live);
        cb.connected(h);
        return h;
    }

    private void fail(Callback cb, String sqlState, String message) {
        inflight--;
        cb.failed(sqlState, message);
    }

    void closed(FakeServerHandle h) {
        live--;
    }
}
