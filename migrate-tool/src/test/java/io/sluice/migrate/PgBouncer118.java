package io.sluice.migrate;

import java.util.List;
import java.util.Set;

/**
 * What Debian's PgBouncer 1.18 (the reference binary on the test machines) does not know of
 * PgBouncer 1.25.2's config, found by running it. Corpus files using any of these are checked
 * against Sluice's loader only, because 1.18 refuses to start with them.
 */
final class PgBouncer118 {

    /** {@code [pgbouncer]} keys added after 1.18. */
    static final Set<String> UNKNOWN_SETTINGS = Set.of("auth_dbname", "auth_ident_file", "auth_ldap_options",
            "cancel_wait_timeout", "client_tls13_ciphers", "max_db_client_connections", "max_prepared_statements",
            "max_user_client_connections", "peer_id", "query_wait_notify", "scram_iterations",
            "server_tls13_ciphers", "track_extra_parameters", "transaction_timeout",
            // Windows-only alias, refused on Linux by every version
            "service_name");

    /** {@code [databases]} parameters added after 1.18 (1.18 says "unrecognized connection parameter"). */
    static final Set<String> UNKNOWN_DB_PARAMS = Set.of("server_lifetime", "auth_query", "auth_dbname",
            "max_db_client_connections", "load_balance_hosts", "reserve_pool_size");

    /** {@code [users]} parameters 1.18 knows; everything else there is refused. */
    static final Set<String> KNOWN_USER_PARAMS = Set.of("pool_mode", "max_user_connections");

    /**
     * Keys whose default changed between 1.18 and 1.25.2 (1.18: ciphers {@code fast},
     * server_tls_sslmode {@code disable}, server_check_query {@code select 1}); compared only
     * when a file sets them.
     */
    static final Set<String> OTHER_DEFAULTS = Set.of("client_tls_ciphers", "server_tls_ciphers",
            "server_tls_sslmode", "server_check_query");

    /** Sections added after 1.18. */
    static final Set<String> UNKNOWN_SECTIONS = Set.of("peers");

    /**
     * SHOW DATABASES columns of 1.18, in order; {@code reserve_pool} is 1.25's
     * {@code reserve_pool_size}.
     */
    static final List<String> DATABASE_COLUMNS = List.of("name", "host", "port", "database", "force_user",
            "pool_size", "min_pool_size", "reserve_pool", "pool_mode", "max_connections", "current_connections",
            "paused", "disabled");

    private PgBouncer118() {
    }

    /** True when 1.18 can load every line. */
    static boolean accepts(List<SourceLine> lines) {
        for (SourceLine l : lines) {
            if (l.kind() == SourceLine.Kind.SECTION && UNKNOWN_SECTIONS.contains(l.section())) {
                return false;
            }
            if (l.kind() != SourceLine.Kind.KEY) {
                continue;
            }
            switch (l.section()) {
                case "pgbouncer" -> {
                    if (UNKNOWN_SETTINGS.contains(l.key().toLowerCase())) {
                        return false;
                    }
                }
                case "databases" -> {
                    for (String p : UNKNOWN_DB_PARAMS) {
                        if (l.value().matches("(^|.*\\s)" + p + "\\s*=.*")) {
                            return false;
                        }
                    }
                }
                case "users" -> {
                    for (String kv : l.value().split("\\s+")) {
                        if (!kv.isEmpty() && !KNOWN_USER_PARAMS.contains(kv.split("=")[0].strip())) {
                            return false;
                        }
                    }
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }
}
