package io.sluice.config;

/**
 * A rejected input that can point at a place in a file: the message is
 * {@code <file>:<line>: <what>} (or {@code <file>: <what>} when no line applies), which is how
 * operators find the offending line; {@link #what()} is the reason alone.
 */
public abstract class FileLineException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String what;

    /** An error at {@code file:line}; a line of 0 means the file as a whole. */
    protected FileLineException(String file, int line, String what) {
        super(line > 0 ? file + ":" + line + ": " + what : file + ": " + what);
        this.file = file;
        this.line = line;
        this.what = what;
    }

    /** An error with no place in a file. */
    protected FileLineException(String what) {
        super(what);
        this.file = null;
        this.line = 0;
        this.what = what;
    }

    /** The file named in the message, or null. */
    public String file() {
        return file;
    }

    /** The 1-based line, or 0 when no line applies. */
    public int line() {
        return line;
    }

    /** The reason without the file and line. */
    public String what() {
        return what;
    }
}
