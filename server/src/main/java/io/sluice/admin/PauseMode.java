package io.sluice.admin;

/** Global pooler state as SHOW STATE and PAUSE/SUSPEND/RESUME see it (PgBouncer's cf_pause_mode). */
public enum PauseMode {
    /** Running normally. */
    NONE,
    /** PAUSE (or SHUTDOWN WAIT_FOR_SERVERS) in effect. */
    PAUSE,
    /** SUSPEND in effect. */
    SUSPEND
}
