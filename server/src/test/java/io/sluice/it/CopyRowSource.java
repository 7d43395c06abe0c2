package io.sluice.it;

import java.io.InputStream;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * COPY text-format rows generated on the fly, {@code <id>\t<payload>\n} for id 1..rows with a
 * fixed 90-byte payload (about 100 bytes a row), so gigabytes can be streamed without being
 * held anywhere. {@link #produced()} counts the bytes handed to the reader so far: when the
 * reader (pgjdbc's copyIn) is blocked writing to its socket, that count stops growing, which
 * is how a test sees backpressure from the client's side.
 */
final class CopyRowSource extends InputStream {
    static final int PAYLOAD = 90;

    private final long rows;
    private final byte[] row = new byte[20 + 1 + PAYLOAD + 1];
    private final AtomicLong produced = new AtomicLong();
    private long nextId = 1;
    private int rowLen;
    private int rowPos;

    CopyRowSource(long rows) {
        this.rows = rows;
        Arrays.fill(row, (byte) 'p');
    }

    /** Sum of ids 1..rows, for checking that every row arrived once. */
    static long idSum(long rows) {
        return rows * (rows + 1) / 2;
    }

    long produced() {
        return produced.get();
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        int n = 0;
        while (n < len) {
            if (rowPos == rowLen) {
                if (nextId > rows) {
                    break;
                }
                fillRow(nextId++);
            }
            int take = Math.min(len - n, rowLen - rowPos);
            System.arraycopy(row, rowPos, b, off + n, take);
            rowPos += take;
            n += take;
        }
        if (n == 0 && len > 0) {
            return -1;
        }
        produced.addAndGet(n);
        return n;
    }

    private void fillRow(long id) {
        String digits = Long.toString(id);
        int i = 0;
        for (; i < digits.length(); i++) {
            row[i] = (byte) digits.charAt(i);
        }
        row[i++] = '\t';
        Arrays.fill(row, i, i + PAYLOAD, (byte) 'p');
        i += PAYLOAD;
        row[i++] = '\n';
        rowLen = i;
        rowPos = 0;
    }
}
