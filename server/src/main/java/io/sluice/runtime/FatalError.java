package io.sluice.runtime;

import java.util.List;

/**
 * A startup error that ends the process with exit code 1 after one FATAL log line, like
 * PgBouncer's {@code die()}, preceded by the ERROR lines that explain it (a config file's). The
 * message is the exact log text.
 */
public final class FatalError extends RuntimeException {
    private final List<String> errors;

    public FatalError(String message) {
        this(message, List.of(), null);
    }

    public FatalError(String message, Throwable cause) {
        this(message, List.of(), cause);
    }

    public FatalError(String message, List<String> errors, Throwable cause) {
        super(message, cause);
        this.errors = List.copyOf(errors);
    }

    /** ERROR lines to log before the FATAL one. */
    public List<String> errors() {
        return errors;
    }
}
