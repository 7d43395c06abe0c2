package io.sluice.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Hands out free TCP ports on 127.0.0.1. A port is found by binding port 0 and closing the
 * socket; a port already handed out in this JVM is never handed out again, so two fixtures
 * started back to back cannot be given the same port while the first has not bound it yet.
 * Thread-safe.
 */
public final class FreePorts {
    private static final Set<Integer> HANDED = new HashSet<>();
    private static final int ATTEMPTS = 200;

    private FreePorts() {}

    /** A TCP port on 127.0.0.1 that was free a moment ago and was not returned before. */
    public static synchronized int next() {
        for (int i = 0; i < ATTEMPTS; i++) {
            int port = probe();
            if (HANDED.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no fresh free port found after " + ATTEMPTS + " attempts");
    }

    private static int probe() {
        try (ServerSocket s = new ServerSocket()) {
            // No SO_REUSEADDR: the port must really be free, not merely in TIME_WAIT.
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind an ephemeral port on 127.0.0.1", e);
        }
    }
}
