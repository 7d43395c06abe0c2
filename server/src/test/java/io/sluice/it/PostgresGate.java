package io.sluice.it;

import io.sluice.testkit.FreePorts;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP door between a pooler and a real PostgreSQL that a test turns to show the faults a
 * pooler meets when PostgreSQL restarts: {@link Mode#OPEN} forwards bytes, {@link Mode#REFUSE}
 * has no listener (connection refused), {@link Mode#STARTING_UP} answers the startup packet with
 * PostgreSQL's 57P03 "the database system is starting up", {@link Mode#SILENT} accepts and says
 * nothing (a connect timeout). {@link #cut()} drops every connection that went through, as a
 * stopping PostgreSQL does. Threads are daemons and end when their sockets close.
 */
final class PostgresGate implements AutoCloseable {
    enum Mode { OPEN, REFUSE, STARTING_UP, SILENT }

    final int port = FreePorts.next();
    private final int postgresPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Map<Mode, AtomicInteger> accepted = new EnumMap<>(Mode.class);
    private volatile Mode mode = Mode.REFUSE;
    private ServerSocket listener;

    PostgresGate(int postgresPort) {
        this.postgresPort = postgresPort;
        for (Mode m : Mode.values()) {
            accepted.put(m, new AtomicInteger());
        }
    }

    /** Turns the gate; connections already through stay until {@link #cut()}. */
    synchronized PostgresGate mode(Mode next) throws IOException {
        mode = next;
        if (next == Mode.REFUSE) {
            closeListener();
        } else if (listener == null) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            listener = s;
            daemon(() -> acceptLoop(s));
        }
        return this;
    }

    /** Connections accepted while the gate was in {@code m}. */
    int accepted(Mode m) {
        return accepted.get(m).get();
    }

    /** Drops every connection that went through the gate. */
    void cut() {
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    @Override
    public synchronized void close() {
        closeListener();
        cut();
    }

    private void closeListener() {
        if (listener != null) {
            closeQuietly(listener);
            listener = null;
        }
    }

    private void acceptLoop(ServerSocket s) {
        while (!s.isClosed()) {
            Socket client;
            try {
                client = s.accept();
            } catch (IOException e) {
                return;
            }
            Mode m = mode;
            accepted.get(m).incrementAndGet();
            sockets.add(client);
            switch (m) {
                case OPEN -> daemon(() -> forward(client));
                case STARTING_UP -> daemon(() -> startingUp(client));
                default -> { } // SILENT: held open, unanswered, until cut() or close()
            }
        }
    }

    private void forward(Socket client) {
        try {
            Socket server = new Socket(InetAddress.getLoopbackAddress(), postgresPort);
            sockets.add(server);
            daemon(() -> pump(server, client));
            pump(client, server);
        } catch (IOException e) {
            closeQuietly(client);
        }
    }

    private static void pump(Socket from, Socket to) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException ignored) {
            // one side went away: the finally below takes the other with it
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Reads the startup packet and answers as a PostgreSQL still starting up does. */
    private static void startingUp(Socket client) {
        try (client) {
            DataInputStream in = new DataInputStream(client.getInputStream());
            int length = in.readInt();
            in.skipNBytes(length - 4);
            client.getOutputStream().write(fatal("57P03", "the database system is starting up"));
            client.getOutputStream().flush();
        } catch (IOException ignored) {
            // the pooler gave up first
        }
    }

    private static byte[] fatal(String sqlState, String message) {
        ByteArrayOutputStream fields = new ByteArrayOutputStream();
        for (String f : new String[] {"SFATAL", "VFATAL", "C" + sqlState, "M" + message}) {
            fields.writeBytes(f.getBytes(StandardCharsets.UTF_8));
            fields.write(0);
        }
        fields.write(0);
        return ByteBuffer.allocate(5 + fields.size()).put((byte) 'E').putInt(4 + fields.size())
                .put(fields.toByteArray()).array();
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "postgres-gate");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
