package io.sluice.runtime;

/** PgBouncer's pause state ({@code cf_pause_mode}): what SIGUSR1/SIGUSR2 log and do depends on it. */
public enum PauseMode {
    NONE,
    PAUSE,
    SUSPEND
}
