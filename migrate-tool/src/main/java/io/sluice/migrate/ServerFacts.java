package io.sluice.migrate;

import java.util.Map;
import java.util.Optional;

/**
 * What {@code check} read from one PostgreSQL server with read-only queries.
 *
 * @param where               {@code host:port} as shown in the report
 * @param version             server_version
 * @param maxConnections      max_connections
 * @param reserved            superuser_reserved_connections (+ reserved_connections on 16+)
 * @param passwordEncryption  password_encryption
 * @param roles               login role to stored secret kind ({@code md5}, {@code scram}, {@code none}),
 *                            empty when pg_authid could not be read
 * @param storedSecrets       login role to stored secret text (same availability as roles)
 * @param hostMethods         auth methods named on host lines of pg_hba.conf, empty if unreadable
 */
public record ServerFacts(String where, String version, int maxConnections, int reserved, String passwordEncryption,
                          Optional<Map<String, String>> roles, Optional<Map<String, String>> storedSecrets,
                          Optional<java.util.Set<String>> hostMethods) {
}
