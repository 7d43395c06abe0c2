package io.sluice.pool.pressure;

import io.sluice.pool.CheckoutFailure;
import io.sluice.pool.Permit;
import io.sluice.pool.PoolKey;
import io.sluice.pool.coord.Coordinator;
import io.sluice.pool.coord.PermitRequester;

/** A checkout in phase PERMIT as the coordinator sees it. Engine thread only. */
final class PermitWait implements PermitRequester {
    private final Pool pool;
    private final Checkout checkout;

    PermitWait(Pool pool, Checkout checkout) {
        this.pool = pool;
        this.checkout = checkout;
    }

    @Override
    public PoolKey key() {
        return pool.key();
    }

    @Override
    public boolean isWaiting() {
        return checkout.phase() == Checkout.Phase.PERMIT && checkout.waiter.isAlive();
    }

    @Override
    public boolean canConnectNow() {
        return pool.canStartCreate();
    }

    @Override
    public boolean starving() {
        return pool.starving();
    }

    @Override
    public int poolSize() {
        return pool.size();
    }

    @Override
    public int queuedClients() {
        return pool.waitingClients();
    }

    /** Retake a gate slot and connect, or give the permit back and wait at the gate. */
    @Override
    public void accept(Permit permit) {
        if (checkout.phase() != Checkout.Phase.PERMIT || !checkout.aliveOrAbandon()) {
            permit.release();
            return;
        }
        switch (pool.creator().startWithPermit(checkout, permit)) {
            case STARTED -> { }
            case CLOSED -> checkout.fail(Failures.closed());
            default -> checkout.phase5();
        }
    }

    /** Phase E of the coordinator. */
    @Override
    public void exhausted(String message) {
        if (checkout.phase() == Checkout.Phase.PERMIT) {
            checkout.fail(new CheckoutFailure(CheckoutFailure.Kind.LIMIT, Coordinator.IN_USE_SQLSTATE, message));
        }
    }
}
