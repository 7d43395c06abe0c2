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
 * What a Parse's statement text does, for one client. Drivers send the same text again and again
 * (pgbench -M extended, node-postgres, pgjdbc before it prepares): the last text and its answer
 * are kept, so a repeat costs a byte comparison instead of decoding and classifying.
 */
final class ParseTexts {
    private static final int LAST_MAX = 4096;
    /** The last text classified (a heap copy, at most LAST_MAX bytes) and what it does. */
    private ByteBuf lastText;
    private SqlCommand lastCommand;

    /** The command of the NUL-terminated text at {@code start} of {@code body}, before {@code limit}. */
    SqlCommand classify(ByteBuf body, int start, int limit) {
        int end = body.indexOf(start, limit, (byte) 0);
        if (end < 0) {
            throw new ProtocolException("invalid message format in 'P' message");
        }
        int n = end - start;
        if (lastText != null && lastText.readableBytes() == n && ByteBufUtil.equals(body, start, lastText, 0, n)) {
            return lastCommand;
        }
        SqlCommand cmd = classify(body.toString(start, n, StandardCharsets.ISO_8859_1));
        if (n <= LAST_MAX) {
            byte[] text = new byte[n];
            body.getBytes(start, text);
            lastText = Unpooled.wrappedBuffer(text);
            lastCommand = cmd;
        }
        return cmd;
    }

    /** The command a statement text amounts to; several statements in one Parse are an error anyway. */
    static SqlCommand classify(String sql) {
        List<SqlCommand> cmds = SqlClassifier.classify(sql);
        return cmds.size() == 1 ? cmds.get(0) : SqlCommand.NONE;
    }
}
