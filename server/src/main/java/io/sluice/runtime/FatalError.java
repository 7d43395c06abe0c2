package io.sluice.runtime;

import io.sluice.config.ConfigException;

import java.nio.file.Path;
import java.util.List;

/**
 * A startup error that ends the process with exit code 1 after one FATAL log line, like
 * PgBouncer's {@code die()}, preceded by the ERROR lines that explain it (a config file's). The
 * message is the exact log text.
 */
public final class FatalError extends RuntimeException {
    private final List<String> errors;
    private final transient Path logfile;

    public FatalError(String message) {
        this(message, List.of(), null);
    }

    public FatalError(String message, Throwable cause) {
        this(message, List.of(), cause);
    }

    public FatalError(String message, List<String> errors, Throwable cause) {
        this(message, errors, null, cause);
    }

    /** With the logfile the config had named before it failed: the lines go there too, as PgBouncer's do. */
    public FatalError(String message, List<String> errors, Path logfile, Throwable cause) {
        super(message, cause);
        this.errors = List.copyOf(errors);
        this.logfile = logfile;
    }

    /** PgBouncer's "cannot load config file", after the parser's lines, logged where it would log them. */
    static FatalError configNotLoaded(ConfigException e) {
        return new FatalError("cannot load config file", e.logLines(), e.logfile() == null ? null : Path.of(e.logfile()), e);
    }

    /** A logfile to open for these lines when none is open yet, or null. */
    public Path logfile() {
        return logfile;
    }

    /** ERROR lines to log before the FATAL one. */
    public List<String> errors() {
        return errors;
    }
}
