package io.sluice.admin;

/**
 * The fourteen SHOW LISTS counts, in PgBouncer's row order. Sluice has no slab allocator, so
 * {@code free_*} are 0 and {@code used_*} are live object counts; DNS counts are 0 when the
 * JVM resolver is used.
 */
public record ListCounts(
        int databases,
        int users,
        int peers,
        int pools,
        int peerPools,
        int freeClients,
        int usedClients,
        int loginClients,
        int freeServers,
        int usedServers,
        int dnsNames,
        int dnsZones,
        int dnsQueries,
        int dnsPending) {
}
