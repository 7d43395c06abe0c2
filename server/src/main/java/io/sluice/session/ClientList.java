package io.sluice.session;

import io.sluice.pool.PoolKey;

import java.util.EnumMap;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * One of {@link ClientRegistry}'s places: clients in the order they arrived there, linked through
 * a node each client owns (PgBouncer's intrusive lists). A client moves between places three
 * times per transaction in transaction pooling; a hash set cost a hash lookup and an entry
 * allocated per move, with hundreds of clients each a cache miss. Event loop only.
 */
final class ClientList implements Iterable<ClientSession> {
    /** A client's link; it is in at most one list at a time. */
    static final class Node {
        private final ClientSession session;
        private ClientList list;
        private Node prev;
        private Node next;
        /** The registry's lists of the client's pool, once looked up, and for which pool key. */
        EnumMap<ClientSession.State, ClientList> poolLists;
        PoolKey poolListsKey;

        Node(ClientSession session) {
            this.session = session;
        }

        /** The list the client is in, or null. */
        ClientList list() {
            return list;
        }
    }

    private Node head;
    private Node tail;
    private int size;

    int size() {
        return size;
    }

    boolean contains(Node n) {
        return n.list == this;
    }

    /** Appends {@code n}, taking it out of the list it was in first. */
    void add(Node n) {
        if (n.list != null) {
            n.list.remove(n);
        }
        n.list = this;
        n.prev = tail;
        n.next = null;
        if (tail == null) {
            head = n;
        } else {
            tail.next = n;
        }
        tail = n;
        size++;
    }

    /** Takes {@code n} out; nothing when it is not in this list. */
    void remove(Node n) {
        if (n.list != this) {
            return;
        }
        if (n.prev == null) {
            head = n.next;
        } else {
            n.prev.next = n.next;
        }
        if (n.next == null) {
            tail = n.prev;
        } else {
            n.next.prev = n.prev;
        }
        n.list = null;
        n.prev = null;
        n.next = null;
        size--;
    }

    @Override
    public Iterator<ClientSession> iterator() {
        return new Iterator<>() {
            private Node at = head;

            @Override
            public boolean hasNext() {
                return at != null;
            }

            @Override
            public ClientSession next() {
                if (at == null) {
                    throw new NoSuchElementException();
                }
                ClientSession s = at.session;
                at = at.next;
                return s;
            }
        };
    }
}
