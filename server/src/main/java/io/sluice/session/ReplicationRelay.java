package io.sluice.session;

import io.sluice.backend.ServerConnection;
import io.sluice.backend.ServerListener;
import io.sluice.proto.Frame;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.TransactionStatus;

/**
 * A replication client and its dedicated server connection (PgBouncer 1.23+): every message is
 * passed through both ways, nothing is pooled, and either side ending ends the other. The
 * replication protocol (IDENTIFY_SYSTEM, BASE_BACKUP, START_REPLICATION and its CopyBoth stream)
 * needs no more than that. Backpressure follows {@link Relay}'s: the server reads only while the
 * client is writable, the client only while the server is. Event loop only.
 */
final class ReplicationRelay extends ClientSide {
    private ServerConnection server;

    ReplicationRelay(ClientSession session, ServerConnection server, String applicationName) {
        super(session);
        this.server = server;
        server.link(this, applicationName);
    }

    @Override
    ServerConnection server() {
        return server;
    }

    /** A frame from the client (not Terminate); takes ownership. */
    void fromClient(Frame frame) {
        if (server == null) {
            frame.release();
            return;
        }
        server.write(frame);
        if (!server.isWritable()) {
            gate.hold(ReadGate.SERVER_FULL);
            server.flush();
        }
    }

    void clientReadComplete() {
        if (server != null) {
            server.flush();
        }
    }

    @Override
    public void onServerFrame(Frame frame) {
        clientRelay.relay(frame);
    }

    @Override
    public void onReady(TransactionStatus status, Frame frame) {
        onServerFrame(frame);
    }

    @Override
    public void onServerReadComplete() {
        clientOut.flush();
    }

    @Override
    public void onServerLost(String reason) {
        server = null;
        gate.release(ReadGate.SERVER_FULL);
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, reason), reason);
    }

    /** The client went away: its dedicated server goes too (it is never reused). */
    void close() {
        ServerConnection s = server;
        server = null;
        if (s != null) {
            s.unlink();
            s.close("replication client was closed");
        }
    }
}
