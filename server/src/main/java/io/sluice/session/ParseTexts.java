package io.sluice.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.concurrent.FastThreadLocal;
import io.sluice.proto.ProtocolException;
import io.sluice.session.state.SqlClassifier;
import io.sluice.session.state.SqlCommand;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a Parse's statement text does, kept for every text the clients of one event loop sent.
 * Drivers send the same texts again and again (pgjdbc, node-postgres and pgbench -M extended send
 * unnamed Parses), so a text is found by a hash of its bytes and compared whole: a repeat costs
 * that instead of decoding and classifying. One table per loop, as a session's channels and all
 * it touches run on one loop: no lock, and a text many clients send is classified once.
 *
 * <p>When each client kept its own last sixteen texts, a pipeline of twenty statements was
 * classified afresh at every Parse, and so was each new connection's first text.
 *
 * <p>Bounded in texts and bytes; a new text that would pass either bound empties the table first
 * (an application that writes literals into its texts fills it with texts never sent again, and
 * the texts in use come back at their next Parse). Longer texts are classified each time.
 */
final class ParseTexts {
    static final int TEXT_MAX = 4096;
    static final int ENTRIES_MAX = 4096;
    static final int BYTES_MAX = 1 << 20;

    private static final FastThreadLocal<ParseTexts> LOOP = new FastThreadLocal<>() {
        @Override
        protected ParseTexts initialValue() {
            return new ParseTexts(ENTRIES_MAX, BYTES_MAX);
        }
    };

    private record Entry(ByteBuf text, SqlCommand command) {
    }

    private final int entriesMax;
    private final int bytesMax;
    private final LongObjectHashMap<Entry> byHash = new LongObjectHashMap<>();
    private int bytes;

    ParseTexts(int entriesMax, int bytesMax) {
        this.entriesMax = entriesMax;
        this.bytesMax = bytesMax;
    }

    /** The table of the event loop (thread) that calls. */
    static ParseTexts ofThisLoop() {
        return LOOP.get();
    }

    /** The command of the NUL-terminated text at {@code start} of {@code body}, before {@code limit}. */
    SqlCommand classify(ByteBuf body, int start, int limit) {
        int end = body.indexOf(start, limit, (byte) 0);
        if (end < 0) {
            throw new ProtocolException("invalid message format in 'P' message");
        }
        int n = end - start;
        if (n > TEXT_MAX) {
            return classify(body.toString(start, n, StandardCharsets.ISO_8859_1));
        }
        long hash = hash(body, start, n);
        Entry e = byHash.get(hash);
        if (e != null && e.text().readableBytes() == n && ByteBufUtil.equals(body, start, e.text(), 0, n)) {
            return e.command();
        }
        SqlCommand cmd = classify(body.toString(start, n, StandardCharsets.ISO_8859_1));
        keep(hash, body, start, n, cmd);
        return cmd;
    }

    /** How many texts are kept, and their bytes (tests). */
    int kept() {
        return byHash.size();
    }

    int keptBytes() {
        return bytes;
    }

    private void keep(long hash, ByteBuf body, int start, int n, SqlCommand cmd) {
        Entry old = byHash.remove(hash); // another text with the same hash: the new one takes its place
        if (old != null) {
            bytes -= old.text().readableBytes();
        }
        if (byHash.size() == entriesMax || bytes + n > bytesMax) {
            byHash.clear();
            bytes = 0;
        }
        byte[] text = new byte[n];
        body.getBytes(start, text);
        byHash.put(hash, new Entry(Unpooled.wrappedBuffer(text), cmd));
        bytes += n;
    }

    /** A 64-bit hash of {@code n} bytes from {@code start}, eight at a time; equal texts are still compared. */
    static long hash(ByteBuf b, int start, int n) {
        long h = n;
        int i = start;
        int end = start + n;
        for (; end - i >= 8; i += 8) {
            h = Long.rotateLeft((h ^ b.getLong(i)) * 0x9E3779B97F4A7C15L, 31);
        }
        for (; i < end; i++) {
            h = Long.rotateLeft((h ^ b.getByte(i)) * 0x9E3779B97F4A7C15L, 31);
        }
        return h ^ (h >>> 32);
    }

    /** The command a statement text amounts to; several statements in one Parse are an error anyway. */
    static SqlCommand classify(String sql) {
        List<SqlCommand> cmds = SqlClassifier.classify(sql);
        return cmds.size() == 1 ? cmds.get(0) : SqlCommand.NONE;
    }
}
