package io.sluice.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The idle servers of one pool, FIFO: the head is the connection returned earliest, so every
 * connection circulates and none sits idle long enough to be probed or expire unused while
 * others work. Engine thread only.
 */
public final class IdleQueue {
    private final ArrayDeque<PooledServer> queue = new ArrayDeque<>();

    /** Parks a returned connection at the tail. */
    public void add(PooledServer s) {
        s.state(ServerState.IDLE);
        queue.addLast(s);
    }

    /** Takes the connection returned earliest, or null. */
    public PooledServer poll() {
        return queue.pollFirst();
    }

    public boolean remove(PooledServer s) {
        return queue.remove(s);
    }

    public int size() {
        return queue.size();
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }

    /** A copy, head first, so callers may close entries while walking it. */
    public List<PooledServer> snapshot() {
        return new ArrayList<>(queue);
    }
}
