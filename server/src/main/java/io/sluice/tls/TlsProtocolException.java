package io.sluice.tls;

/**
 * The client broke the TLS negotiation in a way it can still be told about in plaintext
 * (a PostgreSQL ErrorResponse, SQLSTATE 08P01): the message is the error text.
 */
public final class TlsProtocolException extends RuntimeException {
    public TlsProtocolException(String message) {
        super(message);
    }
}
