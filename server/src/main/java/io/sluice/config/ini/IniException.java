package io.sluice.config.ini;

import io.sluice.config.FileLineException;

/** The ini text is malformed at {@code file:line}; message is {@code <file>:<line>: <what>}. */
public final class IniException extends FileLineException {

    private static final long serialVersionUID = 1L;

    public IniException(String file, int line, String what) {
        super(file, line, what);
    }
}
