package io.sluice.session;

import io.sluice.backend.CancelForwarder;
import io.sluice.backend.PeerCancels;
import io.sluice.proto.StartupPacket;

/** A CancelRequest, which arrives instead of a startup packet: matched here, or passed on to a peer. */
final class CancelRequests {
    private CancelRequests() {}

    /**
     * Forwards the cancel when both halves of the key match a live client with a query running.
     * Right or wrong, the sender sees the same thing, a close with nothing written, so a flood of
     * guesses learns nothing from the answer. A forwarded one closes only once PostgreSQL has
     * taken it, as PgBouncer does, so the sender's cancel call returns when the cancel is done.
     */
    static void handle(ClientSession session, StartupPacket.CancelRequest c) {
        int secret = c.secretKey();
        PeerCancels peers = session.context().peerCancels();
        int own = peers.peerId();
        if (own > 0) {
            int peer = CancelKeys.peerOf(c.processId());
            if (peer != own) {
                forwardToPeer(session, peers, peer, c.processId(), secret);
                return;
            }
            secret |= CancelKeys.TTL_MASK; // keys are issued with full TTL; a forwarded one arrives lowered
        }
        ClientSession target = session.context().clients().byCancelKey(c.processId(), secret);
        // PgBouncer's reasons (accept_cancel_request), logged as "closing because" of the request
        if (target == null || target == session) {
            session.close("failed cancel request");
        } else if (target.isConsole()) {
            session.close("cancel request for console client");
        } else if (!target.cancelRequested(secret, () -> {
            // a forwarded request is in its target's pool for PgBouncer: that database, no user
            session.identify(target.database(), "");
            session.close(CancelForwarder.SENT);
        })) {
            session.close("cancel request for idle client");
        }
    }

    /**
     * The key was issued by another process of the peer group: pass it on with one hop less of
     * TTL (so a misconfigured ring cannot loop), and close this connection once the peer has
     * closed its own, as PgBouncer does. Failures close it with PgBouncer's reasons.
     */
    private static void forwardToPeer(ClientSession session, PeerCancels peers, int peer, int pid, int secret) {
        if ((secret & CancelKeys.TTL_MASK) == 0) {
            session.close("failed to forward cancel request because its TTL was exhausted");
            return;
        }
        if (!peers.forward(peer, pid, secret - 1, () -> session.channel().close())) {
            session.close("could not find peer to forward request to");
        }
    }
}
