package io.sluice.config;

/**
 * One server of a {@code [databases]} entry: host (name, IP, or a unix socket directory;
 * null for unix_socket_dir) and port.
 */
public record ServerAddress(String host, int port) {
    /** {@code host:port} as SHOW HOSTS and the metrics name it; a unix socket shows its directory. */
    public String label() {
        return (host == null ? "unix" : host) + ":" + port;
    }
}
