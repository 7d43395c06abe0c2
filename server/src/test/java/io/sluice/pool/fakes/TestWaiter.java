package io.sluice.pool.fakes;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.Waiter;
import java.util.List;
import java.util.function.Consumer;

/** A client as the engine sees it; records the outcome and may release after a virtual hold time. */
public final class TestWaiter implements Waiter {
    public final int number;
    private final VirtualScheduler clock;
    private final List<TestWaiter> grantLog;
    private boolean alive = true;
    public Lease lease;
    public CheckoutFailure failure;
    public long grantedAt = -1;
    public int outcomes;
    private long holdNanos = -1;
    private Consumer<Lease> onRelease = l -> { };
    private boolean welcome;

    public TestWaiter(int number, VirtualScheduler clock, List<TestWaiter> grantLog) {
        this.number = number;
        this.clock = clock;
        this.grantLog = grantLog;
    }

    /** Releases the lease {@code nanos} after it is granted. */
    public TestWaiter holdFor(long nanos, Consumer<Lease> beforeRelease) {
        this.holdNanos = nanos;
        this.onRelease = beforeRelease;
        return this;
    }

    public void leave() {
        alive = false;
    }

    /** Marks this waiter as a login waiting for the pool's greeting. */
    public TestWaiter waitingForWelcome() {
        welcome = true;
        return this;
    }

    @Override
    public boolean waitsForWelcome() {
        return welcome;
    }

    @Override
    public boolean isAlive() {
        return alive;
    }

    @Override
    public void granted(Lease l) {
        outcomes++;
        lease = l;
        grantedAt = clock.nanoTime();
        if (grantLog != null) {
            grantLog.add(this);
        }
        if (holdNanos >= 0) {
            clock.schedule(() -> {
                onRelease.accept(l);
                l.release();
            }, holdNanos);
        }
    }

    @Override
    public void failed(CheckoutFailure f) {
        outcomes++;
        failure = f;
    }

    public boolean served() {
        return lease != null;
    }
}
