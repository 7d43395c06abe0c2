package io.sluice.migrate;

/**
 * Input the tool cannot work with: a missing file, an ini syntax error, a bad value. The
 * message is {@code file:line: what} (or {@code file: what} when no line is known), so a shell
 * user can jump to the place.
 */
public final class InputException extends Exception {
    private static final long serialVersionUID = 1L;

    /** {@code file} may be null: the reason names the file itself (one that cannot be read at all). */
    public InputException(String file, int line, String what) {
        super(file == null ? what : line > 0 ? file + ":" + line + ": " + what : file + ": " + what);
    }

    public InputException(String message) {
        super(message);
    }
}
