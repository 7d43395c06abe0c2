package io.sluice.pool.pressure;

import io.sluice.pool.IdleQueue;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerState;
import io.sluice.util.LinkedMembers;

/**
 * Where the logged-in servers of one pool are: one collection per {@link ServerState} (the idle
 * queue, leased, tested) and one method per move, so SHOW POOLS counts are collection sizes and
 * cannot drift. Connects in flight belong to the {@link Creator}. Engine thread only.
 */
final class ServerPlaces {
    private final IdleQueue idle = new IdleQueue();
    private final LinkedMembers<PooledServer> leased = new LinkedMembers<>();
    private final LinkedMembers<PooledServer> testing = new LinkedMembers<>();

    IdleQueue idle() {
        return idle;
    }

    /** Servers lent to clients, in the order they were lent; read only, except through the moves below. */
    Iterable<PooledServer> leased() {
        return leased;
    }

    int leasedCount() {
        return leased.size();
    }

    /** Servers running a recycle probe; read only, except through the moves below. */
    Iterable<PooledServer> testing() {
        return testing;
    }

    int testingCount() {
        return testing.size();
    }

    /** Idle, leased and probing servers. */
    int size() {
        return idle.size() + leased.size() + testing.size();
    }

    /** Parks {@code s} in the idle queue. */
    void park(PooledServer s) {
        idle.add(s);
    }

    /** {@code s} is lent to a client. */
    void lend(PooledServer s) {
        s.state(ServerState.ACTIVE);
        leased.add(s.place());
    }

    /** The client gave {@code s} back; it is in no place until parked, lent again or closed. */
    void returned(PooledServer s) {
        leased.remove(s.place());
    }

    /** {@code s} runs a recycle probe (rollback or liveness check) before reuse. */
    void probe(PooledServer s) {
        idle.remove(s);
        s.state(ServerState.TESTED);
        testing.add(s.place());
    }

    void probeEnded(PooledServer s) {
        testing.remove(s.place());
    }

    /** Takes {@code s} out of its place and marks it closed; false when it was closed already. */
    boolean close(PooledServer s) {
        switch (s.state()) {
            case CLOSED -> {
                return false;
            }
            case IDLE -> idle.remove(s);
            case ACTIVE -> leased.remove(s.place());
            case TESTED -> testing.remove(s.place());
            default -> { }
        }
        s.state(ServerState.CLOSED);
        return true;
    }
}
