package io.sluice.pool;

/**
 * A database-wide permit held by one server connection (or a connect in flight) under a
 * coordinator: main (inside max_db_connections) or reserve (the coordinator's burst reserve
 * above it). Released exactly once, when the connection is physically closed or its connect
 * fails; never when it merely goes idle. Engine thread only.
 */
public interface Permit {
    /** True while the permit counts against the reserve rather than max_db_connections. */
    boolean isReserve();

    /** Swaps a reserve permit for a main one if main has room; true when it is (now) main. */
    boolean tryUpgrade();

    /** Gives the permit back; a second call is an error. */
    void release();
}
