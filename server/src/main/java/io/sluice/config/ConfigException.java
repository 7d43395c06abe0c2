package io.sluice.config;

/**
 * A configuration file, auth file, hba file or SET value was rejected. The message is
 * {@code <file>:<line>: <what>} when a place in a file is known, else just {@code <what>}
 * (admin SET). {@link #what()} is the PgBouncer-like reason alone.
 */
public final class ConfigException extends FileLineException {

    private static final long serialVersionUID = 1L;

    /** An error at {@code file:line}. */
    public ConfigException(String file, int line, String what) {
        super(file, line, what);
    }

    /** An error with no place in a file (SET from the admin console). */
    public ConfigException(String what) {
        super(what);
    }
}
