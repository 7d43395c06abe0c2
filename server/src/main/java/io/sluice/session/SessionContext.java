package io.sluice.session;

import io.sluice.pool.PoolKey;
import io.sluice.pool.Waiter;
import io.sluice.stats.DatabaseStats;

import java.util.Map;

/** Everything a client session needs from the rest of Sluice; implemented by runtime. */
public interface SessionContext {
    SessionSettings settings();

    RouteLookup route(String database, String user);

    /** The user's auth_file secret (plain, md5..., SCRAM-SHA-256$...), or null when absent. */
    String secret(String user);

    /** Keys recovered from a client's SCRAM proof, for pass-through logins to the server. */
    void rememberScramKeys(String user, byte[] clientKey, byte[] serverKey);

    void checkout(PoolKey key, Waiter waiter);

    /** A transaction ended after {@code nanos} (feeds the pool's latency histogram). */
    void transactionDone(PoolKey key, long nanos);

    /** ParameterStatus values a new client of this pool is greeted with; null if none known yet. */
    Map<String, String> welcome(PoolKey key);

    void rememberWelcome(PoolKey key, Map<String, String> params);

    DatabaseStats stats(String database);

    ClientRegistry clients();

    Console console();

    /** Unix uid of this process (for peer-authenticated console access). */
    int ownUid();

    /** Sends a CancelRequest to the server that runs a query (fire and forget). */
    void forwardCancel(io.sluice.backend.ServerConnection server);
}
