package io.sluice.backend;

/**
 * Peering (PgBouncer 1.19+ {@code peer_id} and {@code [peers]}): cancel requests whose key names
 * another process of the group are passed on to that process. Implemented by
 * {@link PeerForwarder}; session tests answer with their own.
 */
public interface PeerCancels {
    /** This process's {@code peer_id}; 0 means peering is off. */
    int peerId();

    /**
     * Passes the CancelRequest {@code (pid, secret)} on to peer {@code peerId}; {@code done} runs
     * on the event loop once the peer has closed that connection, or forwarding failed. Returns
     * false, without running {@code done}, when {@code [peers]} has no such peer.
     */
    boolean forward(int peerId, int pid, int secret, Runnable done);
}
