package io.sluice.session;

import io.sluice.auth.UserLookup;
import io.sluice.backend.WelcomeCache;
import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;
import io.sluice.stats.DatabaseStats;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

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

    /**
     * Finds the user a login names: auth_file first, then auth_query when {@code database} has
     * an auth_user. Answers on the event loop, at once or when the query has run.
     *
     * @param database the database the client asked for; null where auth_query must not run
     * @param alive    false once the client has gone
     */
    void lookupUser(String database, String user, BooleanSupplier alive, Consumer<UserLookup> done);

    /** Keys recovered from a client's SCRAM proof, for pass-through logins to the server. */
    void rememberScramKeys(String user, byte[] clientKey, byte[] serverKey);

    void checkout(PoolKey key, Waiter waiter);

    /**
     * Opens a server connection of {@code key}'s database and user outside the pool, for one
     * replication client: {@code startup} is added to the pool's startup parameters.
     */
    void connectReplication(PoolKey key, java.util.Map<String, String> startup, io.sluice.pool.ServerConnector.Callback callback);

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

    /** Forwards clients' cancel requests and holds released servers back until they are complete. */
    io.sluice.backend.Cancels cancels();

    /** Peering: this process's peer_id and the forwarding of cancels whose key names a peer. */
    io.sluice.backend.PeerCancels peerCancels();
}
