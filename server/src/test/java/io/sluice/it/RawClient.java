package io.sluice.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A hand-driven protocol client for feeding Sluice malformed input. */
final class RawClient implements AutoCloseable {
    final Socket socket;
    /** The BackendKeyData of the last login through {@link #readUntilReadyOrError()}. */
    int backendPid;
    int backendSecret;
    private final DataInputStream in;
    private final OutputStream out;

    RawClient(int port) throws IOException {
        this(new Socket("127.0.0.1", port));
    }

    /** Over a socket already connected (a TLS socket, for instance). */
    RawClient(Socket connected) throws IOException {
        socket = connected;
        socket.setSoTimeout(15_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    static byte[] startup(Map<String, String> params) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        params.forEach((k, v) -> {
            body.writeBytes((k + "\0" + v + "\0").getBytes(StandardCharsets.UTF_8));
        });
        body.write(0);
        ByteBuffer b = ByteBuffer.allocate(8 + body.size());
        b.putInt(8 + body.size()).putInt(196608).put(body.toByteArray());
        return b.array();
    }

    static byte[] cancelRequest(int pid, int secret) {
        return ByteBuffer.allocate(16).putInt(16).putInt(80877102).putInt(pid).putInt(secret).array();
    }

    static byte[] query(String sql) {
        byte[] s = (sql + "\0").getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(5 + s.length).put((byte) 'Q').putInt(4 + s.length).put(s).array();
    }

    /** One byte outside any message (the answer to an SSLRequest or GSSENCRequest); -1 at EOF. */
    int readRawByte() throws IOException {
        return in.read();
    }

    /** One backend message: its type and body. */
    record Message(char type, byte[] body) {
    }

    Message readMessage() throws IOException {
        byte type = in.readByte();
        int len = in.readInt();
        byte[] body = new byte[len - 4];
        in.readFully(body);
        return new Message((char) type, body);
    }

    /** Reads messages until ReadyForQuery or ErrorResponse; returns the error fields, or null at ReadyForQuery. */
    Map<Character, String> readUntilReadyOrError() throws IOException {
        while (true) {
            byte type = in.readByte();
            int len = in.readInt();
            byte[] body = new byte[len - 4];
            in.readFully(body);
            if (type == 'E') {
                return fields(body);
            }
            if (type == 'K') {
                ByteBuffer key = ByteBuffer.wrap(body);
                backendPid = key.getInt();
                backendSecret = key.getInt();
            }
            if (type == 'Z') {
                return null;
            }
        }
    }

    /** Sends a simple query and reads to its end: the error fields, or null when it succeeded. */
    Map<Character, String> readAfter(String sql) throws IOException {
        send(query(sql));
        Map<Character, String> error = readUntilReadyOrError();
        if (error != null) {
            readUntilReadyOrError();
        }
        return error;
    }

    /** Runs a simple query and returns the first column of its first row (null if no row). */
    String queryOne(String sql) throws IOException {
        send(query(sql));
        String value = null;
        while (true) {
            byte type = in.readByte();
            int len = in.readInt();
            byte[] body = new byte[len - 4];
            in.readFully(body);
            if (type == 'D' && value == null) {
                int n = ByteBuffer.wrap(body, 2, 4).getInt();
                value = n < 0 ? null : new String(body, 6, n, StandardCharsets.UTF_8);
            } else if (type == 'E') {
                throw new IOException("error: " + fields(body));
            } else if (type == 'Z') {
                return value;
            }
        }
    }

    /** Runs a simple query and returns all rows, values as text (SQL NULL as null). */
    java.util.List<java.util.List<String>> rows(String sql) throws IOException {
        send(query(sql));
        java.util.List<java.util.List<String>> rows = new java.util.ArrayList<>();
        while (true) {
            Message m = readMessage();
            if (m.type() == 'D') {
                ByteBuffer b = ByteBuffer.wrap(m.body());
                int n = b.getShort();
                java.util.List<String> row = new java.util.ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    int len = b.getInt();
                    if (len < 0) {
                        row.add(null);
                    } else {
                        row.add(new String(m.body(), b.position(), len, StandardCharsets.UTF_8));
                        b.position(b.position() + len);
                    }
                }
                rows.add(row);
            } else if (m.type() == 'E') {
                throw new IOException("error: " + fields(m.body()));
            } else if (m.type() == 'Z') {
                return rows;
            }
        }
    }

    /**
     * Up to {@code max} backend messages until the server closes, each as its type letter, an
     * ErrorResponse as "E severity sqlstate message", and "EOF" for the close.
     */
    java.util.List<String> describeUntilClosed(int max) throws IOException {
        java.util.List<String> seen = new java.util.ArrayList<>();
        while (seen.size() < max) {
            Message m;
            try {
                m = readMessage();
            } catch (EOFException eof) {
                seen.add("EOF");
                break;
            }
            Map<Character, String> f = m.type() == 'E' ? fields(m.body()) : Map.of();
            seen.add(m.type() == 'E' ? "E " + f.get('S') + " " + f.get('C') + " " + f.get('M') : String.valueOf(m.type()));
        }
        return seen;
    }

    /** True when the server closed the connection (EOF) within the socket timeout. */
    boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain whatever came before the close
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (EOFException | java.net.SocketException e) {
            return true;
        }
    }

    static Map<Character, String> fields(byte[] body) {
        Map<Character, String> f = new LinkedHashMap<>();
        int i = 0;
        while (i < body.length && body[i] != 0) {
            char code = (char) body[i++];
            int end = i;
            while (body[end] != 0) {
                end++;
            }
            f.put(code, new String(body, i, end - i, StandardCharsets.UTF_8));
            i = end + 1;
        }
        return f;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
