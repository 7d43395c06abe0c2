package io.sluice.admin;

import java.util.Objects;

/**
 * One client or server connection as SHOW CLIENTS / SERVERS / SOCKETS / ACTIVE_SOCKETS print it.
 * The console applies PgBouncer's display rules itself: a null user shows {@code (nouser)}, a
 * null database {@code (nodb)} (also use null for peer pools), and state {@code active} with no
 * link shows {@code idle}.
 *
 * @param type               {@code C} for a client, {@code S} for a server
 * @param replication        {@code none}, {@code logical} or {@code physical}
 * @param state              the state name of the list the socket is on: for CLIENTS
 *                           {@code active}/{@code waiting}/{@code active_cancel_req}/{@code waiting_cancel_req},
 *                           for SERVERS {@code active}/{@code idle}/{@code used}/{@code tested}/{@code new}/
 *                           {@code active_cancel}/{@code being_canceled}, for SOCKETS the prefixed forms
 *                           ({@code cl_active}, {@code cl_waiting}, {@code cl_login}, {@code sv_active}, ...)
 * @param addr               remote address text ({@code unix} for Unix-socket peers)
 * @param port               remote port (the listen port for Unix-socket peers)
 * @param connectTimeMillis  connect time, epoch milliseconds; 0 prints "now" as PgBouncer does
 * @param requestTimeMillis  last request time, epoch milliseconds; 0 prints "now" as PgBouncer does
 * @param waitMicros         time since the current query started (0 if none); printed as
 *                           {@code wait} (seconds) and {@code wait_us} (remainder)
 * @param ptr                a stable object id, printed as hex {@code 0x...}
 * @param link               ptr of the linked peer socket, null when unlinked (printed as '')
 * @param remotePid          client pid over Unix sockets, for servers the backend pid; else 0
 * @param tls                '' without TLS, else e.g. {@code TLSv1.3/TLS_AES_256_GCM_SHA384/...}
 * @param applicationName    '' when unknown
 * @param id                 the id KILL_CLIENT takes
 * @param buffers            debug columns for SOCKETS; {@link SocketBuffers#NONE} if unknown
 */
public record SocketRow(
        String type,
        String user,
        String database,
        String replication,
        String state,
        String addr,
        int port,
        String localAddr,
        int localPort,
        long connectTimeMillis,
        long requestTimeMillis,
        long waitMicros,
        boolean closeNeeded,
        long ptr,
        Long link,
        int remotePid,
        String tls,
        String applicationName,
        int preparedStatements,
        long id,
        SocketBuffers buffers) {

    public SocketRow {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(buffers, "buffers");
    }

    /** The same socket in another state (SHOW SOCKETS names the list, not the client's state). */
    public SocketRow withState(String newState) {
        return new SocketRow(type, user, database, replication, newState, addr, port, localAddr, localPort,
                connectTimeMillis, requestTimeMillis, waitMicros, closeNeeded, ptr, link, remotePid, tls,
                applicationName, preparedStatements, id, buffers);
    }
}
