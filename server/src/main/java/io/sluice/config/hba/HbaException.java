package io.sluice.config.hba;

/** The hba file is malformed; message is {@code <file>:<line>: <what>}. */
public final class HbaException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final String what;

    public HbaException(String file, int line, String what) {
        super(line > 0 ? file + ":" + line + ": " + what : file + ": " + what);
        this.file = file;
        this.line = line;
        this.what = what;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public String what() {
        return what;
    }
}
