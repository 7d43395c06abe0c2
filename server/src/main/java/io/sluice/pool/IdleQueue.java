package io.sluice.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The idle servers of one pool, kept in the order they were returned: the head has idled
 * longest, the tail was returned last. Which end is handed out follows PgBouncer's
 * {@code server_round_robin}: 0 (default) takes the tail, most recently used first, so a lone
 * client keeps its server (session-level caches such as a driver's prepared statements stay
 * valid) and surplus servers idle long enough for server_idle_timeout; 1 takes the head, so
 * every server circulates. Because the stored order never depends on the setting, a reload
 * that flips it needs no reordering, and expiry always walks longest-idle first.
 * Engine thread only.
 */
public final class IdleQueue {
    private final ArrayDeque<PooledServer> queue = new ArrayDeque<>();

    /** Parks a returned connection at the tail (most recently returned). */
    public void add(PooledServer s) {
        s.state(ServerState.IDLE);
        queue.addLast(s);
    }

    /**
     * Takes the next connection to hand out, or null: the one returned earliest when
     * {@code roundRobin}, else the one returned last.
     */
    public PooledServer poll(boolean roundRobin) {
        return roundRobin ? queue.pollFirst() : queue.pollLast();
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

    /** A copy, longest idle first, so callers may close entries while walking it. */
    public List<PooledServer> snapshot() {
        return new ArrayList<>(queue);
    }
}
