package io.sluice.migrate;

import java.util.Map;
import java.util.Optional;

/**
 * The migration knowledge that is not in Sluice's key table: deprecated names and their
 * replacements, and PgBouncer keys that Sluice honours with a different mechanism. Keys that
 * Sluice accepts but ignores, and values it refuses, are not listed here: the tool asks
 * Sluice's loader about those ({@link LineProbe}), so they cannot drift. Immutable.
 */
final class KeyNotes {

    /** A note on a key whose meaning differs. */
    record Note(Severity severity, String text) {
    }

    /** {@code [pgbouncer]} keys renamed by PgBouncer: old name to current name. */
    static final Map<String, String> DEPRECATED_SETTINGS = Map.of(
            "service_name", "job_name");

    /** {@code [databases]} parameters renamed by PgBouncer (1.24): old name to current name. */
    static final Map<String, String> DEPRECATED_DB_PARAMS = Map.of(
            "reserve_pool", "reserve_pool_size");

    /** Deprecated values: key=value to what to do instead. */
    static final Map<String, String> DEPRECATED_VALUES = Map.of(
            "auth_type=plain", "auth_type = plain (clear-text passwords on the wire) is deprecated in PgBouncer "
                    + "and kept by Sluice for compatibility; prefer scram-sha-256 (or md5)");

    private static final Map<String, Note> MEANINGS = Map.of(
            "max_db_connections", new Note(Severity.WARNING,
                    "with a value > 0 Sluice runs a per-database coordinator: a new server connection needs a "
                    + "database-wide permit; when the database is full Sluice closes an idle connection of "
                    + "another user's pool of the same database, as PgBouncer does, but only from a pool at "
                    + "least two connections bigger than the one that needs it or idle for "
                    + "min_connection_lifetime, never below min_guaranteed_pool_size; with db_reserve_pool_timeout "
                    + "set it waits that long for a permit before the client gets \"all server connections to "
                    + "database '...' are in use\""),
            "min_pool_size", new Note(Severity.INFO,
                    "best effort in Sluice: pools are topped up every retain_connections_time and only when a "
                    + "connect slot (scaling_max_parallel_creates) is free, so under load it may lag"),
            "server_lifetime", new Note(Severity.INFO,
                    "Sluice adds ±20 % jitter to each connection's lifetime so connections opened together "
                    + "do not close together, and replaces a busy connection in the background when it "
                    + "reaches 95 % of its lifetime"),
            "query_wait_timeout", new Note(Severity.INFO,
                    "same limit for the client; within it Sluice first waits briefly for a connection a "
                    + "neighbour is about to return (direct handoff) before opening a new one"),
            "reserve_pool_timeout", new Note(Severity.INFO,
                    "same meaning; with max_db_connections > 0 it also bounds how long a client waits for a "
                    + "database-wide permit"));

    private KeyNotes() {
    }

    /** The note for a PgBouncer key whose meaning differs in Sluice, if any. */
    static Optional<Note> meaning(String key) {
        return Optional.ofNullable(MEANINGS.get(key));
    }
}
