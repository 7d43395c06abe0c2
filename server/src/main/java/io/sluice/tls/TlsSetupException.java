package io.sluice.tls;

/** TLS cannot be set up as configured; the message is the log line (PgBouncer's words where it has them). */
public final class TlsSetupException extends Exception {
    public TlsSetupException(String message) {
        super(message);
    }

    public TlsSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
