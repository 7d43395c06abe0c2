package io.sluice.pool.pressure;

/**
 * server_login_retry: after a failed connect/login, checkouts that would need a new connection
 * fail at once with the last error until the retry interval has passed, instead of hammering a
 * PostgreSQL that just refused us. A successful login clears it. Engine thread only.
 */
final class LoginRetry {
    private boolean failed;
    private long failedAt;
    private String sqlState;
    private String message;

    void recordFailure(long now, String sqlState, String message) {
        this.failed = true;
        this.failedAt = now;
        this.sqlState = sqlState;
        this.message = message;
    }

    void clear() {
        failed = false;
    }

    boolean blocks(long now, long retryInterval) {
        return failed && retryInterval > 0 && now - failedAt < retryInterval;
    }

    String sqlState() {
        return sqlState;
    }

    String message() {
        return message;
    }
}
