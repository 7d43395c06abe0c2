package io.sluice.backend;

import io.sluice.proto.Frame;
import io.sluice.proto.TransactionStatus;

/** What the client side linked to a server connection receives from it. Called on the event loop. */
public interface ServerListener {
    /** A frame for the client; the listener takes ownership of the reference. */
    void onServerFrame(Frame frame);

    /**
     * A ReadyForQuery arrived; the listener owns {@code frame} and decides whether the client
     * gets it (statement mode refuses a transaction block instead of passing it on).
     */
    void onReady(TransactionStatus status, Frame frame);

    /** The server channel finished a read burst: flush what was written to the client. */
    void onServerReadComplete();

    /** The server went away while linked. */
    void onServerLost(String reason);

    /** The client channel may not take more: the server stops reading until this turns true. */
    boolean clientWritable();

    /**
     * The server channel's writability changed: while it is false the client side stops reading,
     * so a stalled backend does not make Sluice buffer the client's stream.
     */
    void onServerWritable(boolean writable);
}
