package io.sluice.config;

import java.util.List;

/**
 * A configuration file, auth file, hba file or SET value was rejected. The message is
 * {@code <file>:<line>: <what>} when a place in a file is known, else just {@code <what>}
 * (admin SET). {@link #what()} is the PgBouncer-like reason alone.
 */
public final class ConfigException extends FileLineException {

    private static final long serialVersionUID = 1L;
    static final String SYNTAX_ERROR = "syntax error in configuration";
    /** libusual's second line for an include that failed; marks {@link #includeFailed}. */
    private static final String INCLUDE_FAILED = "error processing include file";

    /** The second line PgBouncer's parser logs: for an unknown key {@code invalid value "v" for parameter k}, or {@link #INCLUDE_FAILED}. */
    private final String secondLine;
    /** The logfile the lines before this error had set, or null: where PgBouncer's parser logs it. */
    private String logfile;

    /** An error at {@code file:line}. */
    public ConfigException(String file, int line, String what) {
        this(file, line, what, null);
    }

    /** An unknown key at {@code file:line}, with the value that came with it. */
    ConfigException(String file, int line, String what, String secondLine) {
        super(file, line, what);
        this.secondLine = secondLine;
    }

    /** An included file that could not be read: {@code what} says which and why. */
    static ConfigException includeFailed(String file, int line, String what) {
        return new ConfigException(file, line, what, INCLUDE_FAILED);
    }

    /** An error with no place in a file (SET from the admin console). */
    public ConfigException(String what) {
        super(what);
        this.secondLine = null;
    }

    /** Records the logfile set before the error (empty means none); the first one recorded stays. */
    ConfigException afterLogfile(String value) {
        if (logfile == null && value != null && !value.isEmpty()) {
            logfile = value;
        }
        return this;
    }

    /** The logfile set before the error, or null: PgBouncer writes its error lines there too. */
    public String logfile() {
        return logfile;
    }

    /**
     * The ERROR lines PgBouncer's config parser (libusual's cfparser) logs for this error, in its
     * words: {@code <reason> in configuration (<file>:<line>)}, a syntax error "..., stopping
     * loading", an unknown key as "unknown parameter" and then its value as an invalid one.
     */
    public List<String> logLines() {
        if (file() == null || line() == 0) {
            return List.of(getMessage());
        }
        String at = " in configuration (" + file() + ":" + line() + ")";
        if (what().equals(SYNTAX_ERROR)) {
            return List.of(SYNTAX_ERROR + " (" + file() + ":" + line() + "), stopping loading");
        }
        if (INCLUDE_FAILED.equals(secondLine)) {
            return List.of(what(), INCLUDE_FAILED + " in configuration (" + file() + ":" + line() + "), stopping loading");
        }
        if (secondLine != null) {
            return List.of(what(), secondLine + at);
        }
        return List.of(what() + at);
    }
}
