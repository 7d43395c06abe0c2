package io.sluice.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out free TCP ports on 127.0.0.1 below 32768. Port 0 is not used: Linux picks it from the
 * ephemeral range (32768-60999), the same range it takes the source ports of outgoing
 * connections from, so a listener there can find its port taken by a client socket between
 * probe and bind (and PgBouncer-style configs carry ports below it). Instead a random port in
 * [{@value #LOW}, {@value #HIGH}] is bound and closed; one already handed out in this JVM is never
 * handed out again, so two fixtures started back to back cannot get the same port while the
 * first has not bound it yet. Thread-safe.
 */
public final class FreePorts {
    static final int LOW = 10000;
    static final int HIGH = 32767;
    private static final Set<Integer> HANDED = new HashSet<>();
    private static final int ATTEMPTS = 500;

    private FreePorts() {}

    /** A TCP port on 127.0.0.1 below 32768 that was free a moment ago and was not returned before. */
    public static synchronized int next() {
        for (int i = 0; i < ATTEMPTS; i++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH + 1);
            if (!HANDED.contains(port) && free(port)) {
                HANDED.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no fresh free port in " + LOW + "-" + HIGH + " after " + ATTEMPTS
                + " attempts");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            // No SO_REUSEADDR: the port must really be free, not merely in TIME_WAIT.
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
