package io.sluice.session.state;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol-level statements one server has prepared, as an LRU bounded by
 * {@code max_prepared_statements}: statement key to the server-side name ({@code sluice_<n>}).
 * Adding beyond the bound evicts the least recently used; the caller closes the evicted names
 * on the server. Names whose Close could not be sent yet (or that went stale) wait in
 * {@link #takeCloses()}. Entries carry a sequence number for pipelined resets, as in
 * {@link ClientStatements}.
 */
public final class ServerStatements {
    /** The prefix of the names Sluice prepares statements under. */
    public static final String PREFIX = "sluice_";

    /** A statement as the server has it. */
    public record Prepared(String name, long seq) {
    }

    /** The name a new statement got, and the names evicted to make room for it. */
    public record Added(String name, List<String> evicted) {
    }

    private final LinkedHashMap<StatementKey, Prepared> lru = new LinkedHashMap<>(16, 0.75f, true);
    private final List<String> closes = new ArrayList<>();
    private int max;
    private long counter;
    private long seq;

    /** @param max the bound (max_prepared_statements) */
    public ServerStatements(int max) {
        bound(max);
    }

    /**
     * Changes the bound (a RELOAD changed max_prepared_statements); the next {@link #add}
     * evicts down to it. Names keep counting up, so a name the server still has is never reused.
     */
    public void bound(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max_prepared_statements must not be negative: " + max);
        }
        this.max = max;
    }

    /** The server's name for {@code key}, marking it recently used; null when not prepared. */
    public String lookup(StatementKey key) {
        Prepared p = lru.get(key);
        return p == null ? null : p.name();
    }

    public boolean has(StatementKey key) {
        return lru.containsKey(key);
    }

    /** Registers {@code key} under a fresh name, evicting the least recently used beyond the bound. */
    public Added add(StatementKey key) {
        String name = PREFIX + (++counter);
        lru.put(key, new Prepared(name, ++seq));
        List<String> evicted = List.of();
        if (lru.size() > Math.max(max, 1)) {
            evicted = new ArrayList<>(1);
            Iterator<Map.Entry<StatementKey, Prepared>> it = lru.entrySet().iterator();
            while (lru.size() > Math.max(max, 1) && it.hasNext()) {
                Map.Entry<StatementKey, Prepared> e = it.next();
                if (e.getKey().equals(key)) {
                    continue;
                }
                evicted.add(e.getValue().name());
                it.remove();
            }
        }
        return new Added(name, evicted);
    }

    /** Forgets {@code key} if it is still prepared as {@code name} (its Parse failed or never ran). */
    public void forget(StatementKey key, String name) {
        Prepared p = lru.get(key);
        if (p != null && p.name().equals(name)) {
            lru.remove(key);
        }
    }

    /**
     * The statement's plan went stale on the server (0A000 after DDL): forget it, and close it
     * when the server next takes messages, so the next use prepares it afresh.
     */
    public void stale(String name) {
        Iterator<Prepared> it = lru.values().iterator();
        while (it.hasNext()) {
            if (it.next().name().equals(name)) {
                it.remove();
                closes.add(name);
                return;
            }
        }
    }

    /** A Close for an evicted name did not reach the server: send it later. */
    public void closeLater(String name) {
        closes.add(name);
    }

    /** Whether names wait to be closed on the server ({@link #takeCloses()}). */
    public boolean hasCloses() {
        return !closes.isEmpty();
    }

    /** Names to close on the server before anything else is sent; the list is handed over. */
    public List<String> takeCloses() {
        if (closes.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(closes);
        closes.clear();
        return out;
    }

    public long mark() {
        return seq;
    }

    /** DEALLOCATE ALL / DISCARD ALL ran: everything prepared up to {@code mark} is gone. */
    public void clearUpTo(long mark) {
        lru.values().removeIf(p -> p.seq() <= mark);
        closes.clear();
    }

    public int size() {
        return lru.size();
    }

    public int max() {
        return max;
    }
}
