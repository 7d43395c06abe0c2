package io.sluice.pool;

/** Why a checkout ended without a server; the session turns it into PgBouncer's client error. */
public record CheckoutFailure(Kind kind, String sqlState, String message) {
    /** PgBouncer's answer to a request that waited longer than query_wait_timeout. */
    public static CheckoutFailure waitTimeout() {
        return new CheckoutFailure(Kind.WAIT_TIMEOUT, "08P01", "query_wait_timeout");
    }

    public enum Kind {
        /** query_wait_timeout elapsed (or 0 and no server at once). */
        WAIT_TIMEOUT,
        /** connecting or logging in to PostgreSQL failed. */
        CONNECT_FAILED,
        /** a database-wide or user-wide limit refused the connection. */
        LIMIT,
        /** the pool is shutting down or was removed. */
        CLOSED
    }
}
