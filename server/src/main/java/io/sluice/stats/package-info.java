/** Counters and averages per database (SHOW STATS family, stats_period log lines). May use {@code pool}, {@code util}. */
package io.sluice.stats;
