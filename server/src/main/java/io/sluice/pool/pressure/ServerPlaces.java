package io.sluice.pool.pressure;

import io.sluice.pool.IdleQueue;
import io.sluice.pool.PooledServer;
import io.sluice.pool.ServerState;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Where the logged-in servers of one pool are: one collection per {@link ServerState} (the idle
 * queue, leased, tested) and one method per move, so SHOW POOLS counts are collection sizes and
 * cannot drift. Connects in flight belong to the {@link Creator}. Engine thread only.
 */
final class ServerPlaces {
    private final IdleQueue idle = new IdleQueue();
    private final Set<PooledServer> leased = new LinkedHashSet<>();
    private final Set<PooledServer> testing = new LinkedHashSet<>();

    IdleQueue idle() {
        return idle;
    }

    Set<PooledServer> leased() {
        return Collections.unmodifiableSet(leased);
    }

    Set<PooledServer> testing() {
        return Collections.unmodifiableSet(testing);
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
        leased.add(s);
    }

    /** The client gave {@code s} back; it is in no place until parked, lent again or closed. */
    void returned(PooledServer s) {
        leased.remove(s);
    }

    /** {@code s} runs a recycle probe (rollback or liveness check) before reuse. */
    void probe(PooledServer s) {
        idle.remove(s);
        s.state(ServerState.TESTED);
        testing.add(s);
    }

    void probeEnded(PooledServer s) {
        testing.remove(s);
    }

    /** Takes {@code s} out of its place and marks it closed; false when it was closed already. */
    boolean close(PooledServer s) {
        switch (s.state()) {
            case CLOSED -> {
                return false;
            }
            case IDLE -> idle.remove(s);
            case ACTIVE -> leased.remove(s);
            case TESTED -> testing.remove(s);
            default -> { }
        }
        s.state(ServerState.CLOSED);
        return true;
    }
}
