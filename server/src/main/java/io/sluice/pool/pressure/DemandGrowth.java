package io.sluice.pool.pressure;

/**
 * Growth under steady demand. Anticipation (phases 3 and 4) is for bursts that returns absorb;
 * alone it would keep a pool with steady excess demand below its size for good: 10 clients on 5
 * servers each wait one transaction time for a handoff, inside the two-transaction deadline, so
 * nobody ever connects and they run at half PgBouncer's throughput (and under
 * max_db_connections the pool never asks the coordinator). PgBouncer grows a pool whenever a
 * client waits. Sluice grows it once a client actually had to wait for a return: when a return
 * is handed to a waiting client and the pool could connect, the head of the line, if it only
 * anticipates, goes for a connect now; with nobody else in line, the next client that finds no
 * idle server does. The burst gate still bounds connects in flight; under a coordinator that
 * connect asks for a permit, and may evict. Engine thread only.
 */
final class DemandGrowth {
    private boolean owed;

    /** Called after a returned server went straight to a waiting client of {@code pool}. */
    void afterHandoff(Pool pool) {
        if (!pool.canStartCreate()) {
            return; // a full pool (the usual case under load): no need to look at the next waiter
        }
        Checkout head = pool.handoffQueue().peekLive(Checkout::acceptsHandoff);
        if (head == null) {
            owed = true;
        } else if (head.phase() == Checkout.Phase.HANDOFF) {
            head.stopAnticipating();
        }
    }

    /** True (once) when a checkout that found no idle server should connect instead of anticipating. */
    boolean takeOwed(Pool pool) {
        boolean take = owed && pool.canStartCreate();
        owed = false;
        return take;
    }
}
