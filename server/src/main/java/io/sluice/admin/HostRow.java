package io.sluice.admin;

import java.math.BigDecimal;

/**
 * One SHOW HOSTS row (Sluice's own table): a host of a database with lag checks.
 *
 * @param lagSeconds  replica lag in time, null when unknown or not a replica
 * @param lagBytes    replica lag in WAL bytes (shown beside, never the threshold), null when unknown
 * @param lagSource   {@code primary} (its pg_stat_replication) or {@code replica} (its own LSNs), null when none
 * @param lastCheck   time of the last check as SHOW CLIENTS prints times, null before the first
 * @param serversOpen server connections of the database open to this host now
 */
public record HostRow(String database, String host, String role, String state, BigDecimal lagSeconds,
                      Long lagBytes, String lagSource, String lastCheck, int serversOpen) {
}
