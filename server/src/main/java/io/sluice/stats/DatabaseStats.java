package io.sluice.stats;

/**
 * Monotonic counters for one database, in PgBouncer's units (times in microseconds), and the
 * averages of the last completed {@code stats_period}. Written on the event loop; read by the
 * console on the same loop.
 */
public final class DatabaseStats {
    public static final int FIELDS = 11;
    /** Indexes into {@link #totals()} / {@link #averages()}, in SHOW STATS_TOTALS order. */
    public static final int ASSIGNMENTS = 0, XACTS = 1, QUERIES = 2, RECEIVED = 3, SENT = 4,
            XACT_TIME = 5, QUERY_TIME = 6, WAIT_TIME = 7, CLIENT_PARSE = 8, SERVER_PARSE = 9, BIND = 10;

    private final String database;
    private final long[] totals = new long[FIELDS];
    private long[] periodStart = new long[FIELDS];
    private long[] averages = new long[FIELDS];

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

    public void query(long micros) {
        totals[QUERIES]++;
        totals[QUERY_TIME] += micros;
    }

    public void transaction(long micros) {
        totals[XACTS]++;
        totals[XACT_TIME] += micros;
    }

    public long[] totals() {
        return totals.clone();
    }

    public long[] averages() {
        return averages.clone();
    }

    /**
     * Closes a stats period of {@code seconds}: counts become per-second rates, times become
     * per-transaction / per-query / per-assignment averages (PgBouncer's rules).
     */
    public void rollPeriod(double seconds) {
        long[] delta = new long[FIELDS];
        for (int i = 0; i < FIELDS; i++) {
            delta[i] = totals[i] - periodStart[i];
        }
        long[] avg = new long[FIELDS];
        for (int i : new int[] {ASSIGNMENTS, XACTS, QUERIES, RECEIVED, SENT, CLIENT_PARSE, SERVER_PARSE, BIND}) {
            avg[i] = seconds > 0 ? (long) (delta[i] / seconds) : 0;
        }
        avg[XACT_TIME] = delta[XACTS] > 0 ? delta[XACT_TIME] / delta[XACTS] : 0;
        avg[QUERY_TIME] = delta[QUERIES] > 0 ? delta[QUERY_TIME] / delta[QUERIES] : 0;
        avg[WAIT_TIME] = delta[ASSIGNMENTS] > 0 ? delta[WAIT_TIME] / delta[ASSIGNMENTS] : 0;
        averages = avg;
        periodStart = totals.clone();
    }
}
