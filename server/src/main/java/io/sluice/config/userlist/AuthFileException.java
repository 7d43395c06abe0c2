package io.sluice.config.userlist;

import io.sluice.config.FileLineException;

/**
 * The auth file is malformed; message is {@code <file>:<line>: <what>}. It carries the users
 * read before the broken line, which PgBouncer keeps (and starts with).
 */
public final class AuthFileException extends FileLineException {

    private static final long serialVersionUID = 1L;

    private final transient AuthFile readSoFar;

    public AuthFileException(String file, int line, String what) {
        this(file, line, what, new AuthFile(file, java.util.Map.of()));
    }

    AuthFileException(String file, int line, String what, AuthFile readSoFar) {
        super(file, line, what);
        this.readSoFar = readSoFar;
    }

    /** The users of the lines before the broken one (none when the file could not be read). */
    public AuthFile readSoFar() {
        return readSoFar;
    }
}
