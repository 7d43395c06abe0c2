package io.sluice.session;

import io.sluice.stats.DatabaseStats;
import io.sluice.util.Clock;

/**
 * PgBouncer's query_start and xact_start for one client: a query and a transaction begin when
 * their first message arrives from the client, before any wait for a server, and are counted
 * then; their times run until the ReadyForQuery that ends them. SHOW CLIENTS' wait counts from
 * the same start. Event loop only.
 */
final class QueryTimes {
    private final ClientSession session;
    private final Clock clock;
    /** Null when the client's database keeps no statistics. */
    private final DatabaseStats stats;
    private boolean queryOpen;
    private long queryStart;
    private boolean xactOpen;
    private long xactStart;

    QueryTimes(ClientSession session, Clock clock, DatabaseStats stats) {
        this.session = session;
        this.clock = clock;
        this.stats = stats;
    }

    /**
     * A message from the client: the first of a query opens it, the first of a transaction that
     * too. Reads the clock only then, not for every message of a pipelined query.
     */
    void messageArrived() {
        if (queryOpen) {
            return;
        }
        long now = clock.nanoTime();
        queryOpen = true;
        queryStart = now;
        if (stats != null) {
            stats.queryBegan();
        }
        if (!xactOpen) {
            xactOpen = true;
            xactStart = now;
            if (stats != null) {
                stats.transactionBegan();
            }
        }
    }

    /** When the query in progress (waiting for a server or running) began; 0 when none is. */
    long queryStartedAt() {
        return queryOpen ? queryStart : 0;
    }

    /** The last ReadyForQuery of a query. */
    void queryEnded(long now) {
        if (!queryOpen) {
            return;
        }
        queryOpen = false;
        long query = now - queryStart;
        if (ClientLog.debugging()) {
            ClientLog.debug(session, () -> "query time: " + query / 1000 + " us");
        }
        if (stats != null) {
            stats.queryEnded(query / 1000);
        }
    }

    /** An idle ReadyForQuery: the transaction ends. Returns when it began, or {@code otherwise} when none was open. */
    long transactionEnded(long now, long otherwise) {
        if (!xactOpen) {
            return otherwise;
        }
        xactOpen = false;
        long xact = now - xactStart;
        if (ClientLog.debugging()) {
            ClientLog.debug(session, () -> "transaction time: " + xact / 1000 + " us");
        }
        if (stats != null) {
            stats.transactionEnded(xact / 1000);
        }
        return xactStart;
    }
}
