package io.sluice.pool.coord;

import io.sluice.util.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Hands out the coordinator's reserve permits. Requests (phase R and phase D) are collected for
 * one engine-loop turn and then answered best first by {@code (starving, queued_clients)}: a pool
 * below its effective minimum wins, then the pool with more waiting clients, then the older
 * request. Losers are told at once (R falls through to eviction, D to the error). A request
 * whose pool cannot connect at this moment (its gate is full) is refused rather than handed a
 * permit it would hold idle. Engine thread only.
 */
final class ReserveArbiter {
    /** Best first: starving, then more queued clients, then arrival order. */
    static final Comparator<PermitRequest> RANK = Comparator
            .comparing((PermitRequest r) -> !r.requester.starving())
            .thenComparing(r -> -r.requester.queuedClients())
            .thenComparingLong(r -> r.seq);

    private final Coordinator coordinator;
    private final Scheduler scheduler;
    private final List<PermitRequest> queue = new ArrayList<>();
    private boolean drainScheduled;

    ReserveArbiter(Coordinator coordinator, Scheduler scheduler) {
        this.coordinator = coordinator;
        this.scheduler = scheduler;
    }

    void submit(PermitRequest r) {
        queue.add(r);
        if (!drainScheduled) {
            drainScheduled = true;
            scheduler.execute(this::drain);
        }
    }

    private void drain() {
        drainScheduled = false;
        List<PermitRequest> batch = new ArrayList<>();
        for (PermitRequest r : queue) {
            if (r.live()) {
                batch.add(r);
            }
        }
        queue.clear();
        batch.sort(RANK);
        for (PermitRequest r : batch) {
            if (!r.live()) {
                continue;
            }
            // A permit its pool cannot use at once would be a phantom: refuse it instead.
            coordinator.arbiterAnswer(r, r.requester.canConnectNow() ? coordinator.takeReserve() : null);
        }
    }
}
