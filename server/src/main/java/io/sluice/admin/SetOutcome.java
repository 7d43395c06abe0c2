package io.sluice.admin;

/** Result of applying {@code SET key = value} to the running configuration. */
public enum SetOutcome {
    /** Applied. */
    OK,
    /** Applied, but a TLS key changed and the new TLS setup failed; the old TLS setup stays. */
    OK_TLS_NOT_APPLIED,
    /** Unknown key, key not changeable at run time, or bad value: "SET failed". */
    FAILED
}
