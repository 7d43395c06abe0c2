package io.sluice.session;

import io.sluice.backend.WelcomeCache;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;
import io.sluice.stats.DatabaseStats;

/** Everything a client session needs from the rest of Sluice; implemented by runtime. */
public interface SessionContext {
    SessionSettings settings();

    /** The client TLS configuration new handshakes use (swapped by RELOAD). */
    io.sluice.tls.ClientTls clientTls();

    /** The clock session timers and latency figures read (injected, so tests drive it). */
    io.sluice.util.Clock clock();

    /** Runs session timers on the event loop that owns the session. */
    io.sluice.util.Scheduler scheduler();

    RouteLookup route(String database, String user);

    /** The user's auth_file secret (plain, md5..., SCRAM-SHA-256$...), or null when absent. */
    String secret(String user);

    /** Keys recovered from a client's SCRAM proof, for pass-through logins to the server. */
    void rememberScramKeys(String user, byte[] clientKey, byte[] serverKey);

    void checkout(PoolKey key, Waiter waiter);

    /** A transaction ended after {@code nanos} (feeds the pool's latency histogram). */
    void transactionDone(PoolKey key, long nanos);

    /**
     * ParameterStatus values a new client of this pool is greeted with. Answers at once when
     * known; otherwise one server login learns them for all clients logging in meanwhile
     * (PgBouncer's wait_for_welcome), so a login burst costs one connect, not one each.
     */
    void welcome(PoolKey key, WelcomeCallback callback);

    /** Receives the greeting parameters, or why they could not be learned. On the event loop. */
    interface WelcomeCallback extends WelcomeCache.Callback {
    }

    DatabaseStats stats(String database);

    ClientRegistry clients();

    Console console();

    /** Unix uid of this process (for peer-authenticated console access). */
    int ownUid();

    /** Sends a CancelRequest to the server that runs a query (fire and forget). */
    void forwardCancel(io.sluice.backend.ServerConnection server);
}
