package io.sluice.admin;

/**
 * One SHOW PINNED_CLIENTS row (Sluice's own): a client that keeps its server between
 * transactions in transaction or statement pooling because its session holds state that cannot
 * move. {@code reason} lists what the server reported (e.g. {@code listen=1 temp=2}) or why the
 * session could not be replayed ({@code unsure=...}); {@code serverId}/{@code remotePid} are 0 when
 * it has no server at the moment.
 */
public record PinnedClientRow(
        String database,
        String user,
        long clientId,
        String addr,
        int port,
        long serverId,
        int remotePid,
        String reason) {
}
