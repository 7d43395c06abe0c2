package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.proto.ProtocolException;
import io.sluice.session.state.SqlClassifier;
import io.sluice.session.state.SqlCommand;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a Parse's statement text does, for one client. Drivers send the same few texts again and
 * again, in the same order in every transaction (pgbench's TPC-B-like one has seven; pgjdbc,
 * node-postgres and pgbench -M extended send unnamed Parses): the texts a client sent last and
 * their answers are kept, so a repeat costs byte comparisons instead of decoding and classifying.
 * The search starts after the text found last, where a transaction's next statement usually is.
 * When only the last text was kept, every statement of a TPC-B-like transaction was classified
 * afresh: 3.7 % of the event loop's samples.
 */
final class ParseTexts {
    /** Longer texts are classified each time. */
    static final int TEXT_MAX = 4096;
    static final int ENTRIES = 16;
    /** Bytes of text kept per client at most; the oldest texts go first. */
    static final int BYTES_MAX = 8192;

    private record Entry(ByteBuf text, SqlCommand command) {
    }

    /** A ring in the order the texts came, from {@code oldest}; null until a first text is kept. */
    private Entry[] entries;
    private int oldest;
    private int size;
    private int bytes;
    private int lastFound;

    /** The command of the NUL-terminated text at {@code start} of {@code body}, before {@code limit}. */
    SqlCommand classify(ByteBuf body, int start, int limit) {
        int end = body.indexOf(start, limit, (byte) 0);
        if (end < 0) {
            throw new ProtocolException("invalid message format in 'P' message");
        }
        int n = end - start;
        int found = find(body, start, n);
        if (found >= 0) {
            lastFound = found;
            return entries[found].command();
        }
        SqlCommand cmd = classify(body.toString(start, n, StandardCharsets.ISO_8859_1));
        if (n <= TEXT_MAX) {
            keep(body, start, n, cmd);
        }
        return cmd;
    }

    /** How many texts are kept, and their bytes (tests). */
    int kept() {
        return size;
    }

    int keptBytes() {
        return bytes;
    }

    private int find(ByteBuf body, int start, int n) {
        if (entries == null) {
            return -1;
        }
        for (int k = 1; k <= ENTRIES; k++) {
            int i = (lastFound + k) % ENTRIES;
            Entry e = entries[i];
            if (e != null && e.text().readableBytes() == n && ByteBufUtil.equals(body, start, e.text(), 0, n)) {
                return i;
            }
        }
        return -1;
    }

    private void keep(ByteBuf body, int start, int n, SqlCommand cmd) {
        if (entries == null) {
            entries = new Entry[ENTRIES];
        }
        while (size == ENTRIES || bytes + n > BYTES_MAX) {
            bytes -= entries[oldest].text().readableBytes();
            entries[oldest] = null;
            oldest = (oldest + 1) % ENTRIES;
            size--;
        }
        byte[] text = new byte[n];
        body.getBytes(start, text);
        int at = (oldest + size) % ENTRIES;
        entries[at] = new Entry(Unpooled.wrappedBuffer(text), cmd);
        size++;
        bytes += n;
        lastFound = at;
    }

    /** The command a statement text amounts to; several statements in one Parse are an error anyway. */
    static SqlCommand classify(String sql) {
        List<SqlCommand> cmds = SqlClassifier.classify(sql);
        return cmds.size() == 1 ? cmds.get(0) : SqlCommand.NONE;
    }
}
