package io.sluice.pool.pressure;

import io.sluice.pool.CheckoutFailure;

/** What a checkout that cannot be served is told (PgBouncer's words and SQLSTATE). */
final class Failures {
    static final String WAIT_TIMEOUT_SQLSTATE = "08P01";

    private Failures() {
    }

    static CheckoutFailure waitTimeout() {
        return CheckoutFailure.waitTimeout();
    }

    static CheckoutFailure closed() {
        return new CheckoutFailure(CheckoutFailure.Kind.CLOSED, WAIT_TIMEOUT_SQLSTATE, "pool is closed");
    }
}
