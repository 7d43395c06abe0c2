package io.sluice.compat;

import java.util.List;

/**
 * What PostgreSQL saw during one target's run.
 *
 * @param connects     backend connections created (-1: could not be read)
 * @param peakStartups the most connection startups in flight at once, from "connection
 *                     received" to "connection authorized" (-1: needs the server log)
 * @param connectTimes when each backend connection started, ms after the run began
 * @param source       how it was read: "log", "pg_stat_activity" or "none"
 */
public record BackendStats(long connects, int peakStartups, List<Long> connectTimes, String source) {
    static BackendStats unknown() {
        return new BackendStats(-1, -1, List.of(), "none");
    }
}
