package io.sluice.pool;

/** Port: opens and logs in a new server connection for a pool. Implemented by the backend layer. */
public interface ServerConnector {
    /**
     * Starts connect + login. Exactly one of the callback's methods is called, on the engine thread.
     */
    void connect(PoolKey key, Callback callback);

    interface Callback {
        void connected(ServerHandle server);

        /**
         * The connection could not be made or was lost before login ended (refused, timeout,
         * reset): waiting clients keep waiting and the pool retries after server_login_retry.
         * {@code sqlState}/{@code message} are what clients may be told.
         */
        void failed(String sqlState, String message);

        /**
         * PostgreSQL answered the login with an error, or the login could not be answered with
         * the credentials at hand. Except for {@link #CANNOT_CONNECT_NOW} (starting up / shutting
         * down), PgBouncer then fails every waiting client of a pool that has no server left.
         */
        void rejected(String sqlState, String message);
    }

    /** "the database system is starting up" / "is shutting down": a passing state, retried like a refused connect. */
    String CANNOT_CONNECT_NOW = "57P03";
}
