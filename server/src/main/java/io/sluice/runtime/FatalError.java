package io.sluice.runtime;

/**
 * A startup error that ends the process with exit code 1 after one FATAL log line, like
 * PgBouncer's {@code die()}. The message is the exact log text.
 */
public final class FatalError extends RuntimeException {
    public FatalError(String message) {
        super(message);
    }

    public FatalError(String message, Throwable cause) {
        super(message, cause);
    }
}
