package io.sluice.session;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.sluice.backend.ServerConnection;
import io.sluice.backend.ServerListener;
import io.sluice.proto.codec.FrameSink;
import io.sluice.proto.codec.RunJoiner;

/**
 * The client side of a link to a server, shared by the pooled {@link Relay} and the
 * {@link ReplicationRelay}: the server stops reading while the client is not writable, and the
 * client stops reading while the server is not ({@link ReadGate#SERVER_FULL}).
 */
abstract class ClientSide implements ServerListener {
    protected final ClientSession session;
    /** Where flushes and Sluice's own writes to the client start ({@link ClientSession#writer}). */
    protected final ChannelHandlerContext clientOut;
    /** The promise of every relayed write to the client ({@link RunJoiner#relayedWrites}). */
    protected final ChannelPromise clientVoid;
    /** Where relayed frames go to the client: the joiner before the session's handler, called directly. */
    protected final FrameSink clientRelay;
    protected final ReadGate gate;

    /** The client's read gate is the relay's own: after login nothing else holds its reading off. */
    ClientSide(ClientSession session) {
        this.session = session;
        this.clientOut = session.writer();
        Channel client = clientOut.channel();
        this.clientVoid = RunJoiner.relayedWrites(client);
        this.clientRelay = RunJoiner.sinkFor(clientOut);
        this.gate = new ReadGate(client);
    }

    @Override
    public boolean clientWritable() {
        return clientOut.channel().isWritable();
    }

    @Override
    public void onServerWritable(boolean writable) {
        if (writable) {
            gate.release(ReadGate.SERVER_FULL);
        }
    }

    /** End of one read burst from the client. */
    abstract void clientReadComplete();

    /** The linked server; null when there is none (waiting for one, or after it left). */
    abstract ServerConnection server();

    /** The client's writability changed: the server follows it, so a slow client slows the server. */
    final void clientWritabilityChanged() {
        ServerConnection server = server();
        if (server != null) {
            server.clientWritabilityChanged(clientWritable());
        }
    }
}
