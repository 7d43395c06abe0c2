package io.sluice.compat.suite;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A protocol-level PostgreSQL client that writes down what a client observes, as text events,
 * so two servers' answers can be compared line by line: {@code T col,col} (row description),
 * {@code D v|v} (row), {@code C tag}, {@code I} (empty query), {@code E/N code severity message
 * [detail]} (error/notice), {@code S name=value} (ParameterStatus), {@code A channel payload}
 * (notification, sender pid left out), {@code d text} (COPY data out), {@code Z status}. Parse,
 * bind, describe and close completions are {@code 1 2 t n 3} as on the wire. Loopback only; one
 * thread per client; every read times out after 15 s.
 */
final class WireClient implements AutoCloseable {
    /** Also record each row description's type OIDs (as a "TYPES ..." event after "T ..."). */
    private boolean recordTypes;

    WireClient recordTypes() {
        this.recordTypes = true;
        return this;
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    final Map<String, String> parameters = new TreeMap<>();
    int backendPid;
    int backendKey;

    private WireClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(15_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Logs in (trust, cleartext or md5); throws {@link LoginError} with the server's error fields. */
    static WireClient connect(int port, String db, String user, String password, Map<String, String> options) throws IOException {
        WireClient c = new WireClient(port);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("user", user);
        params.put("database", db);
        params.putAll(options);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        params.forEach((k, v) -> body.writeBytes((k + "\0" + v + "\0").getBytes(StandardCharsets.UTF_8)));
        body.write(0);
        c.send(ByteBuffer.allocate(8 + body.size()).putInt(8 + body.size()).putInt(196608).put(body.toByteArray()).array());
        try {
            c.login(user, password);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private void login(String user, String password) throws IOException {
        while (true) {
            Msg m = read();
            switch (m.type) {
                case 'R' -> {
                    int kind = m.buf.getInt();
                    if (kind == 3) {
                        sendMessage('p', cstr(password));
                    } else if (kind == 5) {
                        byte[] salt = new byte[4];
                        m.buf.get(salt);
                        sendMessage('p', cstr("md5" + md5Hex(md5Hex(password + user).getBytes(StandardCharsets.UTF_8), salt)));
                    } else if (kind != 0) {
                        throw new IOException("auth method " + kind + " not supported by WireClient");
                    }
                }
                case 'S' -> parameters.put(cstring(m.buf), cstring(m.buf));
                case 'K' -> {
                    backendPid = m.buf.getInt();
                    backendKey = m.buf.getInt();
                }
                case 'E' -> throw new LoginError(fields(m.buf));
                case 'Z' -> {
                    return;
                }
                default -> { }
            }
        }
    }

    /** A simple-protocol query; COPY FROM STDIN is fed {@code copyData} (may be null: then CopyFail). */
    List<String> simple(String sql, String copyData) throws IOException {
        sendMessage('Q', cstr(sql));
        return readUntilReady(copyData);
    }

    List<String> simple(String sql) throws IOException {
        return simple(sql, null);
    }

    /** Parse (named or unnamed) + Bind text params + Describe portal + Execute + Sync. */
    List<String> extended(String statement, String sql, String... params) throws IOException {
        ByteArrayOutputStream parse = new ByteArrayOutputStream();
        parse.writeBytes(cstr(statement));
        parse.writeBytes(cstr(sql));
        parse.writeBytes(new byte[] {0, 0});
        sendMessage('P', parse.toByteArray());
        return bindExecute(statement, params);
    }

    /** Bind + Describe + Execute + Sync of an already parsed statement. */
    List<String> bindExecute(String statement, String... params) throws IOException {
        ByteArrayOutputStream bind = new ByteArrayOutputStream();
        bind.writeBytes(cstr(""));
        bind.writeBytes(cstr(statement));
        bind.writeBytes(new byte[] {0, 0});
        bind.writeBytes(ByteBuffer.allocate(2).putShort((short) params.length).array());
        for (String p : params) {
            byte[] v = p.getBytes(StandardCharsets.UTF_8);
            bind.writeBytes(ByteBuffer.allocate(4).putInt(v.length).array());
            bind.writeBytes(v);
        }
        bind.writeBytes(new byte[] {0, 0});
        sendMessage('B', bind.toByteArray());
        sendMessage('D', concat(new byte[] {'P'}, cstr("")));
        sendMessage('E', concat(cstr(""), new byte[] {0, 0, 0, 0}));
        sendMessage('S', new byte[0]);
        return readUntilReady(null);
    }

    /** Reads until a notification arrives (or the 15 s read timeout); returns its event. */
    String awaitNotification() throws IOException {
        while (true) {
            Msg m = read();
            if (m.type == 'A') {
                return notification(m);
            }
        }
    }

    /** Sends a CancelRequest for this session on a new connection (key may be altered to test a wrong one). */
    static void cancel(int port, int pid, int key) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write(ByteBuffer.allocate(16).putInt(16).putInt(80877102).putInt(pid).putInt(key).array());
            s.getOutputStream().flush();
            s.setSoTimeout(15_000);
            s.getInputStream().read(); // the server closes it; wait for that so the cancel was seen
        }
    }

    private List<String> readUntilReady(String copyData) throws IOException {
        List<String> events = new ArrayList<>();
        while (true) {
            Msg m = read();
            switch (m.type) {
                case 'T' -> {
                    int n = m.buf.getShort();
                    List<String> names = new ArrayList<>();
                    List<String> types = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        names.add(cstring(m.buf));
                        m.buf.position(m.buf.position() + 6);  // table oid, column number
                        types.add(Integer.toString(m.buf.getInt()));
                        m.buf.position(m.buf.position() + 8);  // type size, modifier, format
                    }
                    events.add("T " + String.join(",", names));
                    if (recordTypes) {
                        events.add("TYPES " + String.join(",", types));
                    }
                }
                case 'D' -> {
                    int n = m.buf.getShort();
                    List<String> vals = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        int len = m.buf.getInt();
                        if (len < 0) {
                            vals.add("NULL");
                        } else {
                            byte[] v = new byte[len];
                            m.buf.get(v);
                            vals.add(new String(v, StandardCharsets.UTF_8));
                        }
                    }
                    events.add("D " + String.join("|", vals));
                }
                case 'C' -> events.add("C " + cstring(m.buf));
                case 'I' -> events.add("I");
                case 'E', 'N' -> events.add(m.type + " " + describe(fields(m.buf)));
                case 'S' -> events.add("S " + cstring(m.buf) + "=" + cstring(m.buf));
                case 'A' -> events.add(notification(m));
                case 'G' -> {
                    events.add("G");
                    if (copyData != null) {
                        sendMessage('d', copyData.getBytes(StandardCharsets.UTF_8));
                        sendMessage('c', new byte[0]);
                    } else {
                        sendMessage('f', cstr("no data"));
                    }
                }
                case 'H' -> events.add("H");
                case 'd' -> events.add("d " + StandardCharsets.UTF_8.decode(m.buf).toString().stripTrailing());
                case 'c' -> events.add("c");
                case '1', '2', '3', 'n', 't', 's' -> events.add(String.valueOf(m.type));
                case 'Z' -> {
                    events.add("Z " + (char) m.buf.get());
                    return events;
                }
                default -> events.add("? " + m.type);
            }
        }
    }

    private String notification(Msg m) {
        m.buf.getInt(); // sender pid differs by design between any two connections
        return "A " + cstring(m.buf) + " " + cstring(m.buf);
    }

    /** code, severity, message and (when present) detail, hint, position. */
    static String describe(Map<Character, String> f) {
        StringBuilder b = new StringBuilder(f.getOrDefault('C', "?") + " " + f.getOrDefault('V', f.get('S')) + " " + f.get('M'));
        for (char k : new char[] {'D', 'H', 'P'}) {
            if (f.containsKey(k)) {
                b.append(" [").append(k).append(':').append(f.get(k)).append(']');
            }
        }
        return b.toString();
    }

    private void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void sendMessage(char type, byte[] body) throws IOException {
        send(ByteBuffer.allocate(5 + body.length).put((byte) type).putInt(4 + body.length).put(body).array());
    }

    private record Msg(char type, ByteBuffer buf) {}

    private Msg read() throws IOException {
        char type = (char) in.readUnsignedByte();
        int len = in.readInt();
        byte[] body = new byte[len - 4];
        in.readFully(body);
        return new Msg(type, ByteBuffer.wrap(body));
    }

    private static Map<Character, String> fields(ByteBuffer b) {
        Map<Character, String> f = new LinkedHashMap<>();
        while (b.hasRemaining()) {
            char k = (char) b.get();
            if (k == 0) {
                break;
            }
            f.put(k, cstring(b));
        }
        return f;
    }

    private static String cstring(ByteBuffer b) {
        int start = b.position();
        while (b.get() != 0) {
            // scan to the terminator
        }
        return new String(b.array(), start, b.position() - start - 1, StandardCharsets.UTF_8);
    }

    private static byte[] cstr(String s) {
        return (s + "\0").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static String md5Hex(byte[] a, byte[] b) {
        try {
            MessageDigest md = MessageDigest.getInstance("MD5");
            md.update(a);
            md.update(b);
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String md5Hex(String s) {
        return md5Hex(s.getBytes(StandardCharsets.UTF_8), new byte[0]);
    }

    @Override
    public void close() throws IOException {
        try {
            sendMessage('X', new byte[0]);
        } catch (IOException ignored) {
            // already closed by the server
        }
        socket.close();
    }

    /** The ErrorResponse a server sent instead of completing the login. */
    static final class LoginError extends IOException {
        final Map<Character, String> fields;

        LoginError(Map<Character, String> fields) {
            super(describe(fields));
            this.fields = fields;
        }
    }
}
