package io.sluice.admin;

/** One SHOW PEER_POOLS row: cancel forwarding to one peer. */
public record PeerPoolRow(
        int peerId,
        int clActiveCancelReq,
        int clWaitingCancelReq,
        int svActiveCancel,
        int svLogin) {
}
