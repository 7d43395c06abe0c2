package io.sluice.config.ini;

import io.sluice.config.FileLineException;

/** The ini text is malformed at {@code file:line}; message is {@code <file>:<line>: <what>}. */
public final class IniException extends FileLineException {

    private static final long serialVersionUID = 1L;

    private final boolean include;

    public IniException(String file, int line, String what) {
        this(file, line, what, false);
    }

    /** {@code include}: the {@code %include} on this line could not be read ({@code what} says why). */
    IniException(String file, int line, String what, boolean include) {
        super(file, line, what);
        this.include = include;
    }

    /** The file given to the parser could not be read: {@code what} names it and says why, as PgBouncer does. */
    static IniException unreadable(String what) {
        return new IniException(what);
    }

    private IniException(String what) {
        super(what);
        this.include = false;
    }

    /** True when an included file could not be read. */
    public boolean include() {
        return include;
    }
}
