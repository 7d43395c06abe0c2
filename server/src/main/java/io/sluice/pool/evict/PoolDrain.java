package io.sluice.pool.evict;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.PoolEvents;
import io.sluice.pool.PoolKey;
import io.sluice.pool.PoolSnapshot;
import io.sluice.pool.Waiter;
import io.sluice.pool.pressure.Pool;
import io.sluice.util.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for pools to drain, driven by the engine's own events rather than by polling: PAUSE
 * waits until nothing of a database's pools is in use or on its way ({@link #quiet}), SHUTDOWN
 * WAIT_FOR_SERVERS until no server is lent out ({@link #noneLent}). Sits between the engine and
 * the process's {@link PoolEvents} listener, passing every event on; each event that can end a
 * use (a lease released, a server closed, a connect, probe or checkout ended) re-checks the
 * waits on the next turn of the engine loop, once the operation behind it has finished.
 * Engine thread only.
 */
final class PoolDrain implements PoolEvents {
    private record Watch(Predicate<PoolKey> which, Predicate<PoolSnapshot> drained, CompletableFuture<Void> done) {
    }

    private final PoolEvents next;
    private final Supplier<List<Pool>> pools;
    private final Scheduler scheduler;
    private final List<Watch> watches = new ArrayList<>();
    private boolean recheckScheduled;

    PoolDrain(PoolEvents next, Supplier<List<Pool>> pools, Scheduler scheduler) {
        this.next = next;
        this.pools = pools;
        this.scheduler = scheduler;
    }

    /** Nothing in use or on its way: no lent or probing server, no connect, no queued checkout. */
    static boolean quiet(PoolSnapshot s) {
        return s.svActive() == 0 && s.svTested() == 0 && s.svLogin() == 0 && s.clWaiting() == 0;
    }

    static boolean noneLent(PoolSnapshot s) {
        return s.svActive() == 0;
    }

    /**
     * Completes once every pool whose key matches {@code which} satisfies {@code drained} (at
     * once if they already do). Completing or cancelling the result from outside ends the wait.
     */
    CompletableFuture<Void> await(Predicate<PoolKey> which, Predicate<PoolSnapshot> drained) {
        Watch w = new Watch(which, drained, new CompletableFuture<>());
        if (!check(w)) {
            watches.add(w);
        }
        return w.done();
    }

    private boolean check(Watch w) {
        if (w.done().isDone()) {
            return true;
        }
        for (Pool p : pools.get()) {
            if (w.which().test(p.key()) && !w.drained().test(p.snapshot())) {
                return false;
            }
        }
        w.done().complete(null);
        return true;
    }

    private void useEnded() {
        if (!watches.isEmpty() && !recheckScheduled) {
            recheckScheduled = true;
            scheduler.execute(this::recheck);
        }
    }

    private void recheck() {
        recheckScheduled = false;
        for (Watch w : List.copyOf(watches)) {
            if (check(w)) {
                watches.remove(w);
            }
        }
    }

    @Override
    public void serverCreated(PoolKey key, long serverId) {
        next.serverCreated(key, serverId);
        useEnded();
    }

    @Override
    public void serverClosed(PoolKey key, long serverId, String reason) {
        next.serverClosed(key, serverId, reason);
        useEnded();
    }

    @Override
    public void serverReleased(PoolKey key, long serverId) {
        next.serverReleased(key, serverId);
        useEnded();
    }

    @Override
    public void connectFailed(PoolKey key, String sqlState, String message) {
        next.connectFailed(key, sqlState, message);
        useEnded();
    }

    @Override
    public void reserveUsed(PoolKey key, Waiter oldest) {
        next.reserveUsed(key, oldest);
    }

    @Override
    public void checkoutWaited(PoolKey key, long nanos) {
        next.checkoutWaited(key, nanos);
    }

    @Override
    public void checkoutFailed(PoolKey key, CheckoutFailure failure) {
        next.checkoutFailed(key, failure);
        useEnded();
    }

    @Override
    public void checkoutAbandoned(PoolKey key) {
        next.checkoutAbandoned(key);
        useEnded();
    }
}
