package io.sluice.admin;

/**
 * One SHOW DNS_HOSTS row.
 *
 * @param ttlSeconds seconds until the next lookup (0 if overdue)
 * @param addrs      comma-separated addresses
 */
public record DnsHostRow(String hostname, long ttlSeconds, String addrs) {
}
