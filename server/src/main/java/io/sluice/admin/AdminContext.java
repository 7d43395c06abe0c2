package io.sluice.admin;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Everything the admin console reads and changes; implemented by the runtime over the pool
 * engine, stats and the config snapshot.
 *
 * <p>Threading: {@link AdminConsole#execute} calls these methods on the caller's thread, and
 * within one command it checks state and then acts without yielding (e.g. {@link #pauseMode()}
 * then {@link DatabaseControl#pause}). Call {@code execute} on the thread that owns the pooler state (the
 * engine thread), or make the implementation thread-safe. Returned stages may complete on any
 * thread. Lists are snapshots the console may keep; the console never mutates them.
 *
 * <p>Rows the console expects the implementation to include: the console database
 * {@code pgbouncer} in {@link #databases()}, the pool {@code pgbouncer/pgbouncer} in
 * {@link #pools()}, and the user {@code pgbouncer} in {@link #users()}, as PgBouncer lists them.
 * Order of rows is PgBouncer's list order (databases and users sorted by name, pools by
 * database then user).
 *
 * <p>Control methods are called only after the console has validated the request with
 * PgBouncer's rules (admin access, pause state, database exists and is not the console's own),
 * so they need not re-check; {@code database} arguments are null for "all databases".
 */
public interface AdminContext {

    /** Name of the console database; commands on it are refused ("cannot pause admin db: ..."). */
    String ADMIN_DATABASE = "pgbouncer";

    // ---- identity and time -------------------------------------------------------------

    /** Sluice's version, e.g. {@code 0.1.0}; SHOW VERSION prints {@code PgBouncer 1.25.2 (Sluice <v>)}. */
    String sluiceVersion();

    /** Wall-clock now, epoch milliseconds; used where PgBouncer prints a zero timestamp as "now". */
    long currentTimeMillis();

    // ---- state reads (SHOW) ------------------------------------------------------------

    List<ConfigRow> config();

    List<DatabaseRow> databases();

    /**
     * Looks up a database by exact (case-sensitive) name. With {@code registerAutoDatabase},
     * an unknown name is registered from the {@code *} entry if one is configured (PgBouncer's
     * find_or_register_database, used by PAUSE/KILL/RECONNECT/DISABLE/WAIT_CLOSE).
     */
    Optional<DatabaseRow> findDatabase(String name, boolean registerAutoDatabase);

    List<PoolRow> pools();

    /** SHOW CLIENTS: per pool active, waiting, active_cancel_req, waiting_cancel_req; then peer pools. */
    List<SocketRow> clients();

    /** SHOW SERVERS: per pool active, idle, used, tested, new, active_cancel, being_canceled; then peer pools. */
    List<SocketRow> servers();

    /** SHOW SOCKETS: every client and server socket with prefixed states, login clients last. */
    List<SocketRow> sockets();

    /** SHOW ACTIVE_SOCKETS: like {@link #sockets()} but only sockets with buffered data. */
    List<SocketRow> activeSockets();

    List<UserRow> users();

    /** One row per database that has pools, in database order. */
    List<StatsRow> stats();

    /** SHOW TOTALS first eleven rows: totals over all pools. */
    StatsCounters totalCounters();

    /** SHOW TOTALS last eleven rows: averages over all pools. */
    StatsCounters totalAverages();

    ListCounts lists();

    List<PeerRow> peers();

    List<PeerPoolRow> peerPools();

    List<DnsHostRow> dnsHosts();

    List<PoolScalingRow> poolScaling();

    List<PoolCoordinatorRow> poolCoordinators();

    /** SHOW PINNED_CLIENTS: clients that keep their server in transaction/statement pooling. */
    List<PinnedClientRow> pinnedClients();

    /** SHOW HOSTS: hosts of databases with replica lag checks. */
    default List<HostRow> hosts() {
        return List.of();
    }

    PauseMode pauseMode();

    /** True once any SHUTDOWN (or SIGTERM/SIGINT shutdown) is in progress. */
    boolean shuttingDown();

    // ---- control -----------------------------------------------------------------------

    /** PAUSE, RESUME, DISABLE, ENABLE, RECONNECT, KILL and WAIT_CLOSE. */
    DatabaseControl control();

    /** SUSPEND: flush and stop reading all sockets; completes when the buffers are flushed. */
    CompletionStage<Void> suspend();

    /**
     * KILL_CLIENT: disconnect the client with this id (and its server) with reason
     * "admin forced disconnect". The id is PgBouncer's unsigned 64-bit id in a long.
     *
     * @return false if no such client exists
     */
    boolean killClient(long id);

    /**
     * SHUTDOWN: {@link ShutdownMode#IMMEDIATE} exits (the console never replies); the WAIT modes
     * close TCP listeners (and pause, for WAIT_FOR_SERVERS) and return at once.
     */
    void shutdown(ShutdownMode mode);

    /**
     * RELOAD: re-read config, auth_file and hba file and reapply TLS.
     *
     * @return completes with false if the config could not be loaded or TLS not set up again
     */
    CompletionStage<Boolean> reload();

    /** SET key = value on the running {@code [pgbouncer]} settings. */
    SetOutcome set(String key, String value);

    // ---- logging -----------------------------------------------------------------------

    /** Info line with PgBouncer's wording, e.g. {@code PAUSE 'db' command issued}. */
    default void logInfo(String line) {
    }

    /** Error line: every error the console sends is logged too, as PgBouncer does. */
    default void logError(String line) {
    }
}
