package io.sluice.stats;

/**
 * Monotonic counters for one database, in PgBouncer's units (times in microseconds), with the
 * snapshots taken at the last two {@code stats_period} boundaries that {@link StatsRegistry}
 * computes averages from. Written on the event loop; read by the console on the same loop.
 */
public final class DatabaseStats {
    public static final int FIELDS = 11;
    /** Indexes into {@link #totals()} / {@link #averages()}, in SHOW STATS_TOTALS order. */
    public static final int ASSIGNMENTS = 0, XACTS = 1, QUERIES = 2, RECEIVED = 3, SENT = 4,
            XACT_TIME = 5, QUERY_TIME = 6, WAIT_TIME = 7, CLIENT_PARSE = 8, SERVER_PARSE = 9, BIND = 10;

    private final String database;
    private final long[] totals = new long[FIELDS];
    /** Totals at the latest period boundary, and at the one before it. */
    private long[] newer = new long[FIELDS];
    private long[] older = new long[FIELDS];

    public DatabaseStats(String database) {
        this.database = database;
    }

    public String database() {
        return database;
    }

    public void add(int field, long amount) {
        totals[field] += amount;
    }

    /** A message from a client: its bytes, and Parse/Bind counted as PgBouncer's SHOW STATS does. */
    public void clientMessage(byte type, int length) {
        add(RECEIVED, length);
        if (type == 'P') {
            add(CLIENT_PARSE, 1);
        } else if (type == 'B') {
            add(BIND, 1);
        }
    }

    public void assignment(long waitMicros) {
        totals[ASSIGNMENTS]++;
        totals[WAIT_TIME] += waitMicros;
    }

    /** A query's first message arrived (PgBouncer counts it then, before any wait for a server). */
    public void queryBegan() {
        totals[QUERIES]++;
    }

    /** A query ended, {@code micros} after its first message arrived. */
    public void queryEnded(long micros) {
        totals[QUERY_TIME] += micros;
    }

    /** A transaction's first query arrived. */
    public void transactionBegan() {
        totals[XACTS]++;
    }

    /** A transaction ended, {@code micros} after its first query arrived. */
    public void transactionEnded(long micros) {
        totals[XACT_TIME] += micros;
    }

    public long[] totals() {
        return totals.clone();
    }

    /** What was counted since the period boundary before the latest one: PgBouncer's averaging window. */
    long[] sinceOlder() {
        long[] delta = new long[FIELDS];
        for (int i = 0; i < FIELDS; i++) {
            delta[i] = totals[i] - older[i];
        }
        return delta;
    }

    /** A period boundary: the window moves on by one period. */
    void periodBoundary() {
        older = newer;
        newer = totals.clone();
    }
}
