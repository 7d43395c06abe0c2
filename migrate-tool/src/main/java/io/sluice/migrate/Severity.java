package io.sluice.migrate;

/** How much a finding matters; the order is the order of increasing gravity. */
public enum Severity {
    /** A difference worth knowing; nothing to do. */
    INFO,
    /** Works, but behaves differently or is risky; look at it. */
    WARNING,
    /** Will not work or not as before; must be fixed. */
    ERROR
}
