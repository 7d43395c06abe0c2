package io.sluice.session.state;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * A client's protocol-level named statements: its own names mapped to the statement (key) they
 * stand for. The server never sees these names; each server prepares the key under a name of
 * its own ({@link ServerStatements}). Entries carry a sequence number so a pipelined DEALLOCATE
 * ALL or DISCARD ALL forgets only the names registered before it was sent.
 */
public final class ClientStatements {
    /** One named statement: what it is, what its text does to the session, when it was added. */
    public record Entry(StatementKey key, SqlCommand command, long seq) {
    }

    private final Map<String, Entry> byName = new HashMap<>();
    private long seq;
    private long bytes;

    public Entry get(String name) {
        return byName.get(name);
    }

    public boolean has(String name) {
        return byName.containsKey(name);
    }

    public Entry add(String name, StatementKey key, SqlCommand command) {
        Entry e = new Entry(key, command, ++seq);
        Entry old = byName.put(name, e);
        if (old != null) {
            bytes -= old.key().size();
        }
        bytes += key.size();
        return e;
    }

    /** Forgets {@code name} if it still stands for {@code entry} (a Parse that never completed). */
    public void removeIf(String name, Entry entry) {
        if (byName.get(name) == entry) {
            remove(name);
        }
    }

    public boolean remove(String name) {
        Entry e = byName.remove(name);
        if (e != null) {
            bytes -= e.key().size();
        }
        return e != null;
    }

    /** The sequence number of the latest registration; names up to it are "before" a reset sent now. */
    public long mark() {
        return seq;
    }

    /** Forgets every name registered up to {@code mark}. */
    public void clearUpTo(long mark) {
        Iterator<Entry> it = byName.values().iterator();
        while (it.hasNext()) {
            Entry e = it.next();
            if (e.seq() <= mark) {
                bytes -= e.key().size();
                it.remove();
            }
        }
    }

    public int size() {
        return byName.size();
    }

    /** Bytes of statement text (and parameter types) this client makes Sluice keep. */
    public long bytes() {
        return bytes;
    }
}
