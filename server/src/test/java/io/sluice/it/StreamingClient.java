package io.sluice.it;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A protocol client that reads a simple query's result only when the test says so: unlike
 * pgjdbc, which drains a whole result into memory, it can read a little, stop reading (so its
 * socket fills up and the server side must hold back), and then read the rest. Rows are
 * counted and skipped, never kept. Trust login only.
 */
final class StreamingClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private byte[] scratch = new byte[8192];
    private long rows;
    private long rowBytes;
    private String tag;
    private boolean ready;

    StreamingClient(int port, String user, String database) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        // Generous: a read may wait out a stalled server; still bounded so a hang fails the test.
        socket.setSoTimeout(60_000);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        out = socket.getOutputStream();
        out.write(RawClient.startup(Map.of("user", user, "database", database)));
        out.flush();
        readUntil(Long.MAX_VALUE);
    }

    /** Sends a simple query; the counters start again from zero. */
    void query(String sql) throws IOException {
        rows = 0;
        rowBytes = 0;
        tag = null;
        ready = false;
        out.write(RawClient.query(sql));
        out.flush();
    }

    /** Reads until at least {@code bytes} of DataRow messages arrived since the query, or ReadyForQuery. */
    void readRows(long bytes) throws IOException {
        readUntil(bytes);
    }

    /** Reads up to and including ReadyForQuery. */
    void readAll() throws IOException {
        readUntil(Long.MAX_VALUE);
    }

    long rows() {
        return rows;
    }

    long rowBytes() {
        return rowBytes;
    }

    /** The CommandComplete tag, e.g. {@code SELECT 2000000}; null until it arrived. */
    String tag() {
        return tag;
    }

    boolean ready() {
        return ready;
    }

    private void readUntil(long rowBytesWanted) throws IOException {
        while (!ready && rowBytes < rowBytesWanted) {
            byte type = in.readByte();
            int body = in.readInt() - 4;
            switch (type) {
                case 'D' -> {
                    rows++;
                    rowBytes += body + 5;
                    skip(body);
                }
                case 'C' -> {
                    byte[] b = in.readNBytes(body);
                    tag = new String(b, 0, Math.max(0, body - 1), StandardCharsets.UTF_8);
                }
                case 'E' -> throw new IOException("server error: " + RawClient.fields(in.readNBytes(body)));
                case 'Z' -> {
                    skip(body);
                    ready = true;
                }
                default -> skip(body);
            }
        }
    }

    // Through the 64 KiB buffer: InputStream.skip would go to the socket in 2 KiB reads.
    private void skip(int n) throws IOException {
        if (n > scratch.length) {
            scratch = new byte[n];
        }
        in.readFully(scratch, 0, n);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
