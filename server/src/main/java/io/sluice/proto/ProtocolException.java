package io.sluice.proto;

/** Input that breaks the protocol; carries the error the peer should get before we close. */
public final class ProtocolException extends RuntimeException {
    private final PgError error;

    public ProtocolException(PgError error) {
        super(error.message());
        this.error = error;
    }

    public ProtocolException(String message) {
        this(PgError.fatal(SqlState.PROTOCOL_VIOLATION, message));
    }

    public PgError error() {
        return error;
    }
}
