package io.sluice.config.userlist;

import io.sluice.config.FileLineException;

/** The auth file is malformed; message is {@code <file>:<line>: <what>}. */
public final class AuthFileException extends FileLineException {

    private static final long serialVersionUID = 1L;

    public AuthFileException(String file, int line, String what) {
        super(file, line, what);
    }
}
