package io.sluice.pool;

/** Port: opens and logs in a new server connection for a pool. Implemented by the backend layer. */
public interface ServerConnector {
    /**
     * Starts connect + login. Exactly one of the callback's methods is called, on the engine thread.
     */
    void connect(PoolKey key, Callback callback);

    interface Callback {
        void connected(ServerHandle server);

        /** Connect or login failed; {@code sqlState}/{@code message} are what clients should see. */
        void failed(String sqlState, String message);
    }
}
