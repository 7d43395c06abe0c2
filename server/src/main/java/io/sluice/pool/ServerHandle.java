package io.sluice.pool;

import java.util.function.Consumer;

/**
 * Port: one logged-in server connection, as the pool engine sees it. Implemented by the
 * backend layer. All methods are called on the engine thread; {@code probe} answers on it too.
 */
public interface ServerHandle {
    /** Stable id for SHOW SERVERS / logs. */
    long id();

    /** False once the socket closed or the protocol state is broken. */
    boolean isOpen();

    /** True when the last ReadyForQuery said the backend is inside a transaction (T or E). */
    boolean inTransaction();

    /**
     * Runs a recycle probe: {@link Probe#ROLLBACK} ends an open transaction, {@link Probe#CHECK}
     * runs {@code server_check_query}. {@code done} gets true when the connection is fit for reuse.
     */
    void probe(Probe kind, Consumer<Boolean> done);

    /**
     * False while no client has used this connection yet (only the pooler looked at it, as the
     * welcome does). server_lifetime = 0 ends a connection after its first use, which PgBouncer
     * never counts from a login alone.
     */
    default boolean servedClient() {
        return true;
    }

    /**
     * True once its host is being drained (a replica over its lag limit): the connection is not
     * handed out again and closes when its client releases it, so running work finishes.
     */
    default boolean retired() {
        return false;
    }

    /** Closes the connection (Terminate, then socket close); the reason goes to the log. */
    void close(String reason);

    enum Probe { ROLLBACK, CHECK }
}
