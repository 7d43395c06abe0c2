package io.sluice.backend;

import java.util.function.BooleanSupplier;

/**
 * log_connections and log_disconnections as server connections read them, live (RELOAD and SET
 * change them): PgBouncer writes a server's "new connection to server" and "closing because"
 * lines only while the matching key is on.
 */
public record ConnectionLogging(BooleanSupplier connections, BooleanSupplier disconnections) {
    /** Both on: PgBouncer's defaults. */
    public static final ConnectionLogging DEFAULTS = new ConnectionLogging(() -> true, () -> true);
}
