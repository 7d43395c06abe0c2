package io.sluice.pool;

/**
 * Where a server connection is, named like PgBouncer's SHOW SERVERS states so the console can
 * print {@link #pgName()} unchanged.
 */
public enum ServerState {
    /** connect/login in progress (PgBouncer's sv_login list, shown as "new"). */
    NEW("new"),
    /** parked in the idle queue. */
    IDLE("idle"),
    /** lent to a client. */
    ACTIVE("active"),
    /** running a recycle probe (rollback or liveness check) before reuse. */
    TESTED("tested"),
    /** closed; kept only so late callbacks can see it is gone. */
    CLOSED("closed");

    private final String pgName;

    ServerState(String pgName) {
        this.pgName = pgName;
    }

    public String pgName() {
        return pgName;
    }
}
