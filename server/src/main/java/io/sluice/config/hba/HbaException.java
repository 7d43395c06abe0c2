package io.sluice.config.hba;

import io.sluice.config.FileLineException;

/** The hba file is malformed; message is {@code <file>:<line>: <what>}. */
public final class HbaException extends FileLineException {

    private static final long serialVersionUID = 1L;

    public HbaException(String file, int line, String what) {
        super(file, line, what);
    }
}
