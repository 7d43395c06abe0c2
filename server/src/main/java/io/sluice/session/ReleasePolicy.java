package io.sluice.session;

import io.sluice.config.PoolMode;
import io.sluice.proto.TransactionStatus;

/**
 * When a client gives its server back, per pool mode, and what happens to a server whose client
 * left: PgBouncer's rules. Pure decisions; {@link Relay} carries them out.
 */
record ReleasePolicy(PoolMode mode, boolean resetAlways) {
    /** What to do with a linked server when its client goes away. */
    enum Departure {
        /** Idle and synced: give it back (after server_reset_query where that applies). */
        RETURN,
        /**
         * A query runs or a transaction is open: close it, as PgBouncer does, so nothing of the
         * departed client's session (named statements, locks, SET LOCAL) reaches the next one.
         */
        CLOSE
    }

    static final String NOT_READY = "client disconnect while server was not ready";

    /** Statement mode refuses a transaction block instead of relaying its ReadyForQuery. */
    boolean refusesTransactionBlock(TransactionStatus status) {
        return mode == PoolMode.STATEMENT && status.inTransaction();
    }

    /** Transaction and statement mode give the server back at each idle ReadyForQuery. */
    boolean releaseAt(TransactionStatus status) {
        return status == TransactionStatus.IDLE && mode != PoolMode.SESSION;
    }

    /** server_reset_query runs on return in session mode, or always with server_reset_query_always. */
    boolean runsResetQuery() {
        return resetAlways || mode == PoolMode.SESSION;
    }

    Departure onClientGone(boolean queryInFlight, boolean inTransaction, boolean serverOpen) {
        return !queryInFlight && !inTransaction && serverOpen ? Departure.RETURN : Departure.CLOSE;
    }
}
