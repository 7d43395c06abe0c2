package io.sluice.pool.fakes;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Lease;
import io.sluice.pool.Waiter;
import io.sluice.pool.pressure.Pool;

/**
 * A client running back-to-back transactions on one pool, like a pgbench client: checks out,
 * holds the server for {@code hold}, releases, sends the next transaction {@code think} later
 * (its round trip), from {@code startAt} until {@code end}. Counts what it finished; a failed
 * checkout is an error the test reports.
 */
public final class LoopingClient implements Waiter {
    private final VirtualScheduler vt;
    private final Pool pool;
    private final long hold;
    private final long think;
    private final long end;
    private long askedAt;
    public int transactions;
    /** Sum of checkout waits, nanos. */
    public long waited;
    public CheckoutFailure failure;

    private LoopingClient(VirtualScheduler vt, Pool pool, long hold, long think, long end) {
        this.vt = vt;
        this.pool = pool;
        this.hold = hold;
        this.think = think;
        this.end = end;
    }

    /** A client whose first transaction starts at {@code startAt} (clock nanos). */
    public static LoopingClient start(VirtualScheduler vt, Pool pool, long hold, long think, long startAt, long end) {
        LoopingClient c = new LoopingClient(vt, pool, hold, think, end);
        vt.schedule(c::next, startAt - vt.nanoTime());
        return c;
    }

    private void next() {
        askedAt = vt.nanoTime();
        if (askedAt < end) {
            pool.checkout(this);
        }
    }

    @Override
    public boolean isAlive() {
        return true;
    }

    @Override
    public void granted(Lease lease) {
        waited += vt.nanoTime() - askedAt;
        vt.schedule(() -> {
            pool.recordTransaction(hold);
            lease.release();
            transactions++;
            vt.schedule(this::next, think);
        }, hold);
    }

    @Override
    public void failed(CheckoutFailure f) {
        failure = f;
    }
}
