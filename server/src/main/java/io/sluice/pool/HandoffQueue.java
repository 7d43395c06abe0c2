package io.sluice.pool;

import java.util.ArrayDeque;
import java.util.function.Predicate;

/**
 * FIFO queue of waiters with lazy removal: leaving the queue only marks the {@link Ticket};
 * {@link #pollLive} skips marked entries and entries its predicate calls dead (client gone,
 * checkout already served) and drops them as it goes. Used for the direct-handoff queue and
 * the burst-gate queue. Engine thread only.
 */
public final class HandoffQueue<T> {
    private final ArrayDeque<Ticket<T>> queue = new ArrayDeque<>();
    private int registered;

    /** A place in the queue; {@link #cancel()} leaves it (idempotent). */
    public static final class Ticket<T> {
        private final T value;
        private HandoffQueue<T> owner;

        private Ticket(T value, HandoffQueue<T> owner) {
            this.value = value;
            this.owner = owner;
        }

        public T value() {
            return value;
        }

        public boolean isQueued() {
            return owner != null;
        }

        public void cancel() {
            if (owner != null) {
                HandoffQueue<T> q = owner;
                owner = null;
                q.registered--;
                q.compactIfSparse();
            }
        }
    }

    public Ticket<T> add(T value) {
        Ticket<T> t = new Ticket<>(value, this);
        queue.addLast(t);
        registered++;
        return t;
    }

    /** Queues {@code value} ahead of everyone: it keeps the place it held before (a connect it waited on failed). */
    public Ticket<T> addFirst(T value) {
        Ticket<T> t = new Ticket<>(value, this);
        queue.addFirst(t);
        registered++;
        return t;
    }

    /** Removes and returns the oldest entry that is still queued and passes {@code live}, or null. */
    public T pollLive(Predicate<T> live) {
        Ticket<T> t;
        while ((t = queue.pollFirst()) != null) {
            if (t.owner == null) {
                continue;
            }
            t.owner = null;
            registered--;
            if (live.test(t.value)) {
                return t.value;
            }
        }
        return null;
    }

    /**
     * The oldest entry that is still queued and passes {@code live}, left in place; drops dead
     * ones before it.
     */
    public T peekLive(Predicate<T> live) {
        Ticket<T> t;
        while ((t = queue.peekFirst()) != null) {
            if (t.owner != null && live.test(t.value)) {
                return t.value;
            }
            // Dead or cancelled (the predicate may have cancelled it and compacted the deque).
            if (t.owner != null) {
                t.owner = null;
                registered--;
            }
            if (queue.peekFirst() == t) {
                queue.pollFirst();
            }
        }
        return null;
    }

    /** Entries not cancelled yet (may include waiters that died and were not skipped yet). */
    public int registered() {
        return registered;
    }

    /** Cancelled tickets stay in the deque; rebuild it when they dominate so it cannot grow unbounded. */
    private void compactIfSparse() {
        if (queue.size() > 64 && queue.size() > 2 * registered) {
            queue.removeIf(t -> t.owner == null);
        }
    }
}
