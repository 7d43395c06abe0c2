package io.sluice.admin;

/** Result of applying {@code SET key = value} to the running configuration. */
public enum SetOutcome {
    /** Applied, or ignored as PgBouncer ignores a key that is read only at start. */
    OK,
    /** Applied, but a TLS key changed and the new TLS setup failed; the old TLS setup stays. */
    OK_TLS_NOT_APPLIED,
    /** Unknown key or bad value: "SET failed". */
    FAILED
}
