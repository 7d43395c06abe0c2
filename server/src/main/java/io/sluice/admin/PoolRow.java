package io.sluice.admin;

/**
 * One SHOW POOLS row: a (database, user) pool, including the console pool
 * {@code pgbouncer/pgbouncer} (pool mode {@code statement}). Counts are sizes of the pool's
 * state collections.
 *
 * @param maxWaitMicros     how long the first waiting client has waited, 0 if none; shown as
 *                          {@code maxwait} (whole seconds) and {@code maxwait_us} (the remainder)
 * @param poolMode          the pool's effective pool mode ({@code session}/{@code transaction}/{@code statement})
 * @param loadBalanceHosts  load_balance_hosts of the database, null unless its host is a comma list
 */
public record PoolRow(
        String database,
        String user,
        int clActive,
        int clWaiting,
        int clActiveCancelReq,
        int clWaitingCancelReq,
        int svActive,
        int svActiveCancel,
        int svBeingCanceled,
        int svIdle,
        int svUsed,
        int svTested,
        int svLogin,
        long maxWaitMicros,
        String poolMode,
        String loadBalanceHosts) {
}
