package io.sluice.pool.pressure;

/**
 * server_login_retry, as PgBouncer keeps it per pool: after a connect or login failed, no new
 * connect starts until {@code server_login_retry} has passed since that connect <em>started</em>
 * (PgBouncer's {@code last_connect_time}), so a connect that hung until server_connect_timeout
 * is retried at once. "Login failing" (PgBouncer's {@code last_login_failed}) stays set until a
 * login succeeds: with no server left in the pool, new requests fail fast meanwhile. Engine
 * thread only.
 */
final class LoginRetry {
    private boolean failing;
    private long lastFailedStart;
    private String sqlState;
    private String message;

    /** A connect that started at {@code startedAt} failed with this error. */
    void recordFailure(long startedAt, String sqlState, String message) {
        lastFailedStart = failing ? Math.max(lastFailedStart, startedAt) : startedAt;
        failing = true;
        this.sqlState = sqlState;
        this.message = message;
    }

    void clear() {
        failing = false;
    }

    /** The last login failed and none succeeded since (PgBouncer's last_login_failed). */
    boolean failing() {
        return failing;
    }

    /** True while no connect may start: the retry interval since the failed connect's start runs. */
    boolean blocks(long now, long retryInterval) {
        return failing && retryInterval > 0 && now - lastFailedStart < retryInterval;
    }

    /** When {@link #blocks} turns false. */
    long retryAt(long retryInterval) {
        return lastFailedStart + retryInterval;
    }

    String sqlState() {
        return sqlState;
    }

    String message() {
        return message;
    }
}
