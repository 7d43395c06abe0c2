package io.sluice.util;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A list whose members carry their own {@link Link} (PgBouncer's intrusive lists): adding and
 * removing cost no hash, no lookup and no allocation, where a hash set paid all three on each of
 * the several moves a transaction makes (a client between its registry places, a checkout in and
 * out of its pool's pending list, a server lent and returned). Iterates in the order members were
 * added; a link is in at most one list at a time. Changing the list while iterating it throws, as
 * the JDK's collections do. Single-threaded (the event loop).
 */
public class LinkedMembers<T> implements Iterable<T> {
    /** A member's link; it belongs to the member for its lifetime. */
    public static class Link<T> {
        private final T member;
        private LinkedMembers<T> list;
        private Link<T> prev;
        private Link<T> next;

        public Link(T member) {
            this.member = member;
        }

        public T member() {
            return member;
        }

        /** The list the member is in, or null. */
        public LinkedMembers<T> list() {
            return list;
        }
    }

    private Link<T> head;
    private Link<T> tail;
    private int size;
    private int changes;

    public final int size() {
        return size;
    }

    public final boolean isEmpty() {
        return size == 0;
    }

    public final boolean contains(Link<T> l) {
        return l.list == this;
    }

    /** The member added first, or null when empty. */
    public final T first() {
        return head == null ? null : head.member;
    }

    /** Appends {@code l}, taking it out of the list it was in first. */
    public final void add(Link<T> l) {
        if (l.list != null) {
            l.list.remove(l);
        }
        l.list = this;
        l.prev = tail;
        l.next = null;
        if (tail == null) {
            head = l;
        } else {
            tail.next = l;
        }
        tail = l;
        size++;
        changes++;
    }

    /** Takes {@code l} out; nothing when it is not in this list. */
    public final void remove(Link<T> l) {
        if (l.list != this) {
            return;
        }
        if (l.prev == null) {
            head = l.next;
        } else {
            l.prev.next = l.next;
        }
        if (l.next == null) {
            tail = l.prev;
        } else {
            l.next.prev = l.prev;
        }
        l.list = null;
        l.prev = null;
        l.next = null;
        size--;
        changes++;
    }

    /** A copy in list order, for walks that change the list. */
    public final List<T> snapshot() {
        List<T> out = new ArrayList<>(size);
        for (Link<T> l = head; l != null; l = l.next) {
            out.add(l.member);
        }
        return out;
    }

    @Override
    public final Iterator<T> iterator() {
        return new Iterator<>() {
            private final int expected = changes;
            private Link<T> at = head;

            @Override
            public boolean hasNext() {
                return at != null;
            }

            @Override
            public T next() {
                if (changes != expected) {
                    throw new ConcurrentModificationException();
                }
                if (at == null) {
                    throw new NoSuchElementException();
                }
                T member = at.member;
                at = at.next;
                return member;
            }
        };
    }
}
