package io.sluice.session.state;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What makes two Parse messages the same statement: the query text and the parameter type
 * OIDs, kept as the raw bytes that follow the statement name in a Parse (query, its NUL, the
 * count and the OIDs). Any client's Parse with the same bytes shares one server-side statement.
 */
public final class StatementKey {
    private final byte[] bytes;
    private final int hash;

    public StatementKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** The bytes of a Parse after its name, as they go to the server under another name. */
    public byte[] bytes() {
        return bytes;
    }

    /** The query text (up to its NUL), decoded byte for byte. */
    public String query() {
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
    }

    /** Memory this key holds, for the bound on what a client may make Sluice keep. */
    public int size() {
        return bytes.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StatementKey k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        String q = query();
        return "StatementKey(" + (q.length() > 60 ? q.substring(0, 60) + "..." : q) + ")";
    }
}
