package io.sluice.config;

/**
 * A configuration file, auth file, hba file or SET value was rejected. The message is
 * {@code <file>:<line>: <what>} when a place in a file is known, else just {@code <what>}
 * (admin SET). {@link #what()} is the PgBouncer-like reason alone.
 */
public final class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String what;

    /** An error at {@code file:line}. */
    public ConfigException(String file, int line, String what) {
        super(line > 0 ? file + ":" + line + ": " + what : file + ": " + what);
        this.file = file;
        this.line = line;
        this.what = what;
    }

    /** An error with no place in a file (SET from the admin console). */
    public ConfigException(String what) {
        super(what);
        this.file = null;
        this.line = 0;
        this.what = what;
    }

    /** The file named in the message, or null. */
    public String file() {
        return file;
    }

    /** The 1-based line, or 0 when there is no file. */
    public int line() {
        return line;
    }

    /** The reason without the place. */
    public String what() {
        return what;
    }
}
