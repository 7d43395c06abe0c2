package io.sluice.net;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * One end of a connection as SHOW CLIENTS/SERVERS and the log print it: the IP address and port,
 * or {@code unix} and the port the unix socket is named after.
 */
public record Endpoint(String address, int port) {
    public static Endpoint of(SocketAddress a, int unixPort) {
        return a instanceof InetSocketAddress i
                ? new Endpoint(i.getAddress().getHostAddress(), i.getPort())
                : new Endpoint("unix", unixPort);
    }
}
