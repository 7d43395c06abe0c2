package io.sluice.admin;

/**
 * The eleven counters of SHOW STATS, either totals since start or averages over the last
 * stats_period (per second for counts and bytes; per transaction/query for times). Times are
 * microseconds.
 */
public record StatsCounters(
        long serverAssignmentCount,
        long xactCount,
        long queryCount,
        long bytesReceived,
        long bytesSent,
        long xactTime,
        long queryTime,
        long waitTime,
        long clientParseCount,
        long serverParseCount,
        long bindCount) {

    public static final StatsCounters ZERO = new StatsCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
