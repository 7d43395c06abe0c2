package io.sluice.backend;

import java.util.Map;

/**
 * Where and as whom a pool's server connections log in, resolved from the [databases] entry,
 * the auth file and cached SCRAM keys.
 *
 * @param host          host name/IP, or a directory for a unix socket ("/tmp")
 * @param startupParams database, user and the entry's client_encoding/datestyle/timezone/application_name
 * @param connectQuery  run once after login; null when unset
 */
public record BackendTarget(
        String host,
        int port,
        Map<String, String> startupParams,
        BackendCredentials credentials,
        String connectQuery,
        long connectTimeoutNanos) {

    public boolean unixSocket() {
        return host == null || host.isEmpty() || host.startsWith("/");
    }

    /** Unix socket path following PostgreSQL's naming. */
    public String socketPath(String defaultDir) {
        String dir = host == null || host.isEmpty() ? defaultDir : host;
        return dir + "/.s.PGSQL." + port;
    }

    /**
     * No host may take a new server connection now (every replica out of service and
     * replica_fallback = error): the connect is refused, and waiting clients get the message.
     */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message) {
            super(message, null, false, false);
        }
    }
}
