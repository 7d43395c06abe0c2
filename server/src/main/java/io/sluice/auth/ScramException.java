package io.sluice.auth;

import java.util.Objects;

/**
 * A SCRAM exchange cannot continue: the peer sent a malformed message, broke the protocol,
 * or asked for something unsupported (channel binding, authzid, extensions). The
 * {@link #failure()} says what to report; the exception message is its detail.
 */
public final class ScramException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient AuthFailure failure;

    public ScramException(AuthFailure failure) {
        super(Objects.requireNonNull(failure).detail());
        this.failure = failure;
    }

    static ScramException malformed(String detail) {
        return new ScramException(AuthFailure.malformed(detail));
    }

    public AuthFailure failure() {
        return failure;
    }
}
