import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for PostgreSQL that answers every query at once, so that the pooler in front of it
 * is the bottleneck (step 13, target 5). One thread, one selector; trust login; every SELECT
 * returns one row with the int4 value 1, anything else its command tag; BEGIN/COMMIT/ROLLBACK
 * move the transaction status so transaction pooling releases as it would. Simple and extended
 * protocol (Parse/Bind/Describe/Execute/Close/Sync/Flush). Not a database: no errors, no COPY.
 *
 * <p>As the database host of a remote stage (bench/pressure-compare.sh): LOGIN_MS holds each login's
 * answer that long, and a simple query with {@code pg_sleep(s)} is answered s seconds later. Both
 * are wall-clock waits on a timer, not work: they stand for a database host with CPUs of its own,
 * whose backends start and run beside each other without taking this machine's cores from the
 * pooler and the clients. Each login is logged as PostgreSQL's log_connections does ("[id] LOG:
 * connection received", "... connection authorized: user=U database=D"), so the benchmark counts
 * backends and startups in flight the same way for both.
 *
 *   java bench/SyntheticBackend.java PORT [LOGIN_MS]   (listens on 127.0.0.1:PORT until killed)
 */
public final class SyntheticBackend {
    private static final int SSL_REQUEST = 80877103;
    private static final int CANCEL_REQUEST = 80877102;

    /** One client connection: its unread input, its pending output, and where it is. */
    private static final class Conn {
        ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        ByteBuffer out = ByteBuffer.allocate(64 * 1024);
        boolean started;
        char status = 'I';
        boolean sawSelect;          // the statement of the current Parse is a SELECT
        int messageStart;           // where the length of the message being written goes
        final int id = ++connections;
        long heldUntil;             // nanoTime until which the answer in out waits (0: none)
        String authorized;          // the log line of a login whose answer is held
        SelectionKey key;
    }

    private static int connections;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static long loginNanos;
    /** Connections whose answer is held, soonest first. */
    private static final PriorityQueue<Conn> HELD =
            new PriorityQueue<>((a, b) -> Long.compare(a.heldUntil, b.heldUntil));
    private static final Pattern SLEEP = Pattern.compile("(?i)pg_sleep\\s*\\(\\s*([0-9.]+)\\s*\\)");

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: java bench/SyntheticBackend.java PORT [LOGIN_MS]");
            System.exit(2);
        }
        loginNanos = args.length > 1 ? (long) (Double.parseDouble(args[1]) * 1_000_000) : 0;
        Selector selector = Selector.open();
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 1024);
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        System.out.println("synthetic backend listening on 127.0.0.1:" + args[0]);
        while (true) {
            Conn next = HELD.peek();
            if (next == null) {
                selector.select();
            } else {
                long wait = next.heldUntil - System.nanoTime();
                if (wait > 0) {
                    selector.select(Math.max(1, (wait + 999_999) / 1_000_000));
                } else {
                    selector.selectNow();
                }
            }
            releaseDue();
            for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                SelectionKey key = it.next();
                it.remove();
                try {
                    if (key.isAcceptable()) {
                        SocketChannel ch;
                        while ((ch = listener.accept()) != null) {
                            ch.configureBlocking(false);
                            ch.socket().setTcpNoDelay(true);
                            Conn c = new Conn();
                            c.key = ch.register(selector, SelectionKey.OP_READ, c);
                            log(c, "connection received: host=127.0.0.1");
                        }
                    } else if (key.isReadable() || key.isWritable()) {
                        serve(key);
                    }
                } catch (IOException | RuntimeException e) {
                    key.cancel();
                    key.channel().close();
                }
            }
        }
    }

    /** Sends the answers whose time has come, and goes on with what their clients sent since. */
    private static void releaseDue() {
        long now = System.nanoTime();
        while (!HELD.isEmpty() && HELD.peek().heldUntil <= now) {
            Conn c = HELD.poll();
            c.heldUntil = 0;
            logAuthorized(c);
            try {
                answer(c);
                flush(c);
            } catch (IOException | RuntimeException e) {
                c.key.cancel();
                try {
                    c.key.channel().close();
                } catch (IOException ignored) {
                    // closing a connection that already failed
                }
            }
        }
    }

    private static void serve(SelectionKey key) throws IOException {
        SocketChannel ch = (SocketChannel) key.channel();
        Conn c = (Conn) key.attachment();
        if (key.isReadable()) {
            if (!c.in.hasRemaining()) {
                c.in = grow(c.in, c.in.capacity() * 2);
            }
            if (ch.read(c.in) < 0) {
                throw new IOException("closed");
            }
            answer(c);
        }
        flush(c);
    }

    /** Answers the complete messages read so far, up to one whose answer must wait. */
    private static void answer(Conn c) throws IOException {
        if (c.heldUntil != 0) {
            return;          // PostgreSQL runs one statement at a time: the rest waits its turn
        }
        c.in.flip();
        while (c.heldUntil == 0 && (c.started ? answerMessage(c) : answerStartup(c))) {
            // one complete message handled per pass
        }
        c.in.compact();
    }

    /** Starts holding the answers written from here on for {@code nanos}. */
    private static void hold(Conn c, long nanos) throws IOException {
        if (nanos <= 0) {
            return;
        }
        flush(c);            // what was answered before goes out now
        c.heldUntil = System.nanoTime() + nanos;
        HELD.add(c);
    }

    private static void flush(Conn c) throws IOException {
        if (c.heldUntil != 0) {
            c.key.interestOps(SelectionKey.OP_READ);   // nothing goes out until the hold ends
            return;
        }
        SocketChannel ch = (SocketChannel) c.key.channel();
        SelectionKey key = c.key;
        c.out.flip();
        ch.write(c.out);
        boolean pending = c.out.hasRemaining();
        c.out.compact();
        key.interestOps(pending ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    private static boolean answerStartup(Conn c) throws IOException {
        if (c.in.remaining() < 8 || c.in.remaining() < c.in.getInt(c.in.position())) {
            return false;
        }
        int len = c.in.getInt();
        int code = c.in.getInt();
        int end = c.in.position() + len - 8;
        java.util.Map<String, String> given = new java.util.HashMap<>();
        for (int p = c.in.position(); p < end - 1; ) {   // name, value, ..., terminating zero
            String name = cstringAt(c.in, p);
            p += name.getBytes(StandardCharsets.UTF_8).length + 1;
            String value = cstringAt(c.in, p);
            p += value.getBytes(StandardCharsets.UTF_8).length + 1;
            given.put(name, value);
        }
        c.in.position(end);
        if (code == SSL_REQUEST) {
            put(c, (byte) 'N');
            return true;
        }
        if (code == CANCEL_REQUEST) {
            throw new IOException("cancel: nothing runs long enough to cancel");
        }
        c.started = true;
        c.authorized = "connection authorized: user=" + given.get("user") + " database=" + given.get("database");
        hold(c, loginNanos);
        if (c.heldUntil == 0) {
            logAuthorized(c);
        }
        message(c, 'R').putInt(0);
        end(c);
        for (String[] p : new String[][] {{"server_version", "15.0"}, {"server_encoding", "UTF8"},
                {"client_encoding", "UTF8"}, {"DateStyle", "ISO, MDY"}, {"TimeZone", "UTC"},
                {"integer_datetimes", "on"}, {"standard_conforming_strings", "on"}, {"application_name", ""}}) {
            message(c, 'S');
            cstring(c, p[0]);
            cstring(c, given.getOrDefault(p[0], p[1]));  // as PostgreSQL, the client's own values
            end(c);
        }
        message(c, 'K').putInt((int) (Math.random() * Integer.MAX_VALUE)).putInt(42);
        end(c);
        ready(c);
        return true;
    }

    private static boolean answerMessage(Conn c) throws IOException {
        if (c.in.remaining() < 5 || c.in.remaining() < 1 + c.in.getInt(c.in.position() + 1)) {
            return false;
        }
        char type = (char) c.in.get();
        int len = c.in.getInt();
        int bodyEnd = c.in.position() + len - 4;
        switch (type) {
            case 'Q' -> {
                String sql = cstringAt(c.in, c.in.position());
                Matcher sleep = SLEEP.matcher(sql);
                if (sleep.find()) {
                    hold(c, (long) (Double.parseDouble(sleep.group(1)) * 1e9));
                }
                if (isSelect(sql)) {
                    rowDescription(c);
                    dataRow(c);
                }
                reportSet(c, sql);
                complete(c, sql);
                ready(c);
            }
            case 'P' -> {
                int p = c.in.position();
                String name = cstringAt(c.in, p);
                String sql = cstringAt(c.in, p + name.getBytes(StandardCharsets.UTF_8).length + 1);
                c.sawSelect = isSelect(sql);
                c.status = statusAfter(c.status, sql);
                message(c, '1');
                end(c);
            }
            case 'B' -> {
                message(c, '2');
                end(c);
            }
            case 'D' -> {
                if (c.in.get(c.in.position()) == 'S') {
                    message(c, 't').putShort((short) 0);
                    end(c);
                }
                if (c.sawSelect) {
                    rowDescription(c);
                } else {
                    message(c, 'n');
                    end(c);
                }
            }
            case 'E' -> {
                if (c.sawSelect) {
                    dataRow(c);
                    tag(c, "SELECT 1");
                } else {
                    tag(c, "OK");
                }
            }
            case 'C' -> {
                message(c, '3');
                end(c);
            }
            case 'S' -> ready(c);
            case 'H' -> { }
            case 'X' -> throw new IOException("terminate");
            default -> throw new IOException("unexpected message " + type);
        }
        c.in.position(bodyEnd);
        return true;
    }

    /**
     * {@code SET name = 'value'} reports the new value as PostgreSQL does for its reported
     * parameters; without it a pooler would think the server still has the old value and send
     * the SET again before every transaction.
     */
    private static void reportSet(Conn c, String sql) {
        var m = SET.matcher(sql);
        if (m.matches()) {
            message(c, 'S');
            cstring(c, m.group(1));
            cstring(c, m.group(2));
            end(c);
        }
    }

    private static final Pattern SET = Pattern.compile(
            "(?is)\\s*set\\s+(?:session\\s+)?(\\w+)\\s*(?:=|to)\\s*'?([^';]*)'?\\s*;?\\s*");

    /** A line as PostgreSQL's log_connections writes it (the connection's number for a pid). */
    private static void log(Conn c, String what) {
        System.out.println(STAMP.format(LocalDateTime.now()) + " UTC [" + c.id + "] LOG:  " + what);
    }

    private static void logAuthorized(Conn c) {
        if (c.authorized != null) {
            log(c, c.authorized);
            c.authorized = null;
        }
    }

    private static boolean isSelect(String sql) {
        return sql.stripLeading().regionMatches(true, 0, "select", 0, 6);
    }

    private static char statusAfter(char status, String sql) {
        String s = sql.stripLeading().toLowerCase();
        if (s.startsWith("begin") || s.startsWith("start transaction")) {
            return 'T';
        }
        if (s.startsWith("commit") || s.startsWith("end") || s.startsWith("rollback") || s.startsWith("discard")) {
            return 'I';
        }
        return status;
    }

    private static void complete(Conn c, String sql) {
        c.status = statusAfter(c.status, sql);
        String word = sql.stripLeading().split("[\\s;]+", 2)[0].toUpperCase();
        tag(c, switch (word) {
            case "SELECT" -> "SELECT 1";
            case "INSERT" -> "INSERT 0 1";
            case "UPDATE", "DELETE" -> word + " 1";
            case "END" -> "COMMIT";
            default -> word;
        });
    }

    private static void rowDescription(Conn c) {
        message(c, 'T').putShort((short) 1);
        cstring(c, "?column?");
        c.out.putInt(0).putShort((short) 0).putInt(23).putShort((short) 4).putInt(-1).putShort((short) 0);
        end(c);
    }

    private static void dataRow(Conn c) {
        message(c, 'D').putShort((short) 1).putInt(1).put((byte) '1');
        end(c);
    }

    private static void tag(Conn c, String tag) {
        message(c, 'C');
        cstring(c, tag);
        end(c);
    }

    private static void ready(Conn c) {
        message(c, 'Z').put((byte) c.status);
        end(c);
    }

    /** Starts a message: type, a length filled in by {@link #end}. */
    private static ByteBuffer message(Conn c, char type) {
        if (c.out.remaining() < 1024) {
            c.out = grow(c.out, c.out.capacity() * 2);
        }
        c.out.put((byte) type);
        c.messageStart = c.out.position();
        return c.out.putInt(0);
    }

    private static void end(Conn c) {
        c.out.putInt(c.messageStart, c.out.position() - c.messageStart);
    }

    private static void put(Conn c, byte b) {
        c.out.put(b);
    }

    private static void cstring(Conn c, String s) {
        c.out.put(s.getBytes(StandardCharsets.UTF_8)).put((byte) 0);
    }

    private static String cstringAt(ByteBuffer b, int from) {
        int end = from;
        while (b.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - from];
        b.get(from, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static ByteBuffer grow(ByteBuffer b, int capacity) {
        ByteBuffer bigger = ByteBuffer.allocate(capacity);
        b.flip();
        return bigger.put(b);
    }
}
