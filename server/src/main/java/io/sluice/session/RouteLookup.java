package io.sluice.session;

import io.sluice.proto.PgError;

/** Result of resolving a startup packet's database and user. */
public sealed interface RouteLookup {
    /**
     * @param newAutoDatabase the database came from the {@code *} entry and this is its first use,
     *                        which PgBouncer logs as "registered new auto-database"
     */
    record Pooled(Route route, boolean newAutoDatabase) implements RouteLookup {
        public Pooled(Route route) {
            this(route, false);
        }
    }

    /**
     * The admin console database {@code pgbouncer}, with the client limits PgBouncer applies to it
     * as to any database (its own max_db_client_connections is the global one); 0 = no limit.
     */
    record Console(int maxDbClientConnections, int maxUserClientConnections) implements RouteLookup {
    }

    /**
     * @param noSuchDatabase the database is unknown: PgBouncer still authenticates against a fake
     *                       database, logs its lines without a pool ("(nodb)") and ends with
     *                       "login failed"
     */
    record Refused(PgError error, boolean noSuchDatabase) implements RouteLookup {
        public Refused(PgError error) {
            this(error, false);
        }
    }

    /**
     * The config cannot serve this login at all (auth_type = any and no forced user): PgBouncer
     * logs {@code problem} as an ERROR before the client has a pool or a user, and refuses at
     * once with "bouncer config error", with no login attempt.
     */
    record Misconfigured(String problem) implements RouteLookup {
    }
}
