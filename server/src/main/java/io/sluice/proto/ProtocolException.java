package io.sluice.proto;

/** Input that breaks the protocol; carries the error the peer should get before we close. */
public final class ProtocolException extends RuntimeException {
    private final PgError error;
    private final String errorLine;

    public ProtocolException(PgError error) {
        this(error, null);
    }

    public ProtocolException(String message) {
        this(PgError.fatal(SqlState.PROTOCOL_VIOLATION, message));
    }

    /** @param errorLine what PgBouncer logs as an ERROR before it closes for this; null for nothing */
    public ProtocolException(PgError error, String errorLine) {
        super(error.message());
        this.error = error;
        this.errorLine = errorLine;
    }

    public PgError error() {
        return error;
    }

    /** An ERROR line to log before the close line, or null. */
    public String errorLine() {
        return errorLine;
    }
}
