package io.sluice.runtime;

import java.util.Optional;

/**
 * A warning PgBouncer has no need for: every connected client keeps some of the JVM's heap, whose
 * maximum (-Xmx, 256 MiB in the packages' JAVA_OPTS) is fixed at start, so a max_client_conn
 * PgBouncer served can be more clients than that heap holds. Past it the JVM fails with an
 * OutOfMemoryError, and with the packages' -XX:+ExitOnOutOfMemoryError every client is dropped.
 * Logged at start and when RELOAD or SET raises max_client_conn, with the -Xmx that fits.
 */
final class ClientHeap {
    /**
     * Live heap an idle logged-in client keeps: 4.3 KiB measured with bench/idle-clients.sh
     * (10,000 clients, transaction pooling), rounded up for clients with longer names and more
     * parameters.
     */
    static final long BYTES_PER_CLIENT = 4608;
    /**
     * What the heap needs besides the clients: the live set of a started pooler (6 MiB), the
     * young generation (at most 16 MiB in the packages' options) and room for pools, servers
     * and buffers in flight.
     */
    static final long RESERVE_BYTES = 48L << 20;

    private ClientHeap() {
    }

    /** The warning for {@code maxClientConn} clients in this JVM's heap, if any. */
    static Optional<String> warning(int maxClientConn) {
        return warning(maxClientConn, Runtime.getRuntime().maxMemory());
    }

    /**
     * The warning for {@code maxClientConn} clients in a heap of at most {@code maxHeap} bytes, if
     * any (a JVM without a limit reports Long.MAX_VALUE, which no estimate reaches).
     */
    static Optional<String> warning(int maxClientConn, long maxHeap) {
        long needed = needed(maxClientConn);
        if (needed <= maxHeap) {
            return Optional.empty();
        }
        return Optional.of("max_client_conn = " + maxClientConn + " needs about " + mib(needed)
                + " MiB of heap when every client is connected, more than the JVM's maximum of " + mib(maxHeap)
                + " MiB: set -Xmx" + advisedXmxMib(needed)
                + "m in JAVA_OPTS (/etc/default/sluice or /etc/sysconfig/sluice in the packages)");
    }

    static long needed(int maxClientConn) {
        return RESERVE_BYTES + Math.max(0, maxClientConn) * BYTES_PER_CLIENT;
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    /**
     * The estimate plus 16 MiB for the survivor space the JVM leaves out of the maximum it reports
     * (so that following the advice silences the warning), up to a multiple of 64 MiB, as someone
     * would write the setting.
     */
    static long advisedXmxMib(long neededBytes) {
        return (mib(neededBytes) + 16 + 63) / 64 * 64;
    }
}
