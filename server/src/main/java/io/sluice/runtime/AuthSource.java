package io.sluice.runtime;

import io.sluice.pool.PoolKey;

/**
 * Where auth_query runs for logins to one database: the pool of auth_user in auth_dbname (or
 * in that database) and the query; or why it cannot run.
 *
 * @param pool    the auth pool; null when the database has no auth_user (or does not exist)
 * @param query   auth_query for that database
 * @param problem what is misconfigured (logged; the client gets "bouncer config error"), or null
 */
record AuthSource(PoolKey pool, String query, String problem) {
    static final AuthSource NONE = new AuthSource(null, null, null);

    static AuthSource misconfigured(String problem) {
        return new AuthSource(null, null, problem);
    }

    boolean runs() {
        return pool != null;
    }
}
