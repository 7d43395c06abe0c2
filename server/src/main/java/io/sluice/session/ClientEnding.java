package io.sluice.session;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.DecoderException;
import io.sluice.log.Level;
import io.sluice.log.Log;
import io.sluice.net.Closes;
import io.sluice.pool.CheckoutFailure;
import io.sluice.proto.PgError;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.FrameDecoder;
import io.sluice.proto.codec.StartupDecoder;
import io.sluice.tls.TlsInfo;
import io.sluice.tls.TlsProtocolException;

/**
 * How a client's session ends, in PgBouncer's order and words: the reason a socket's end or an
 * exception stands for, the "closing because" and "pooler error" lines, the server settled, and
 * the error (if any) sent last.
 */
final class ClientEnding {
    private final ClientSession session;
    private boolean closing;

    ClientEnding(ClientSession session) {
        this.session = session;
    }

    /** The session is ending or has ended: what the client still sends is dropped. */
    boolean closing() {
        return closing;
    }

    /** Logs {@code reason}, sends {@code error} to the client, closes. */
    void fail(PgError error, String reason) {
        if (session.state() == ClientSession.State.CLOSED || closing) {
            return;
        }
        closing = true;
        end(reason, error);
    }

    /** Ends the session without an error to the client (Terminate, EOF). */
    void close(String reason) {
        end(reason, null);
    }

    /** The pool could not give a server: the client gets the engine's text (PgBouncer's words). */
    void failCheckout(CheckoutFailure f) {
        if (session.state() == ClientSession.State.CLOSED) {
            return;
        }
        String sqlState = f.sqlState() == null ? SqlState.PROTOCOL_VIOLATION : f.sqlState();
        fail(PgError.fatal(sqlState, f.message()), f.message());
    }

    /**
     * The client's socket ended. Terminate has closed the session already; a socket that just
     * ends is PgBouncer's "client unexpected eof", except during login between whole packets
     * ({@code awaitingLogin}: the login waits for the client): a monitoring probe, or psql
     * asking for a password, logs nothing there (client_proto).
     */
    void socketEnded(boolean awaitingLogin) {
        if (awaitingLogin && nothingPartial()) {
            end(null, null);
        } else {
            close("client unexpected eof");
        }
    }

    /** No message has arrived in part (the decoders hold no bytes). */
    private boolean nothingPartial() {
        Channel channel = session.channel();
        StartupDecoder startup = channel.pipeline().get(StartupDecoder.class);
        FrameDecoder frames = channel.pipeline().get(FrameDecoder.class);
        return (startup == null || startup.buffered() == 0) && (frames == null || frames.buffered() == 0);
    }

    /** What went wrong on the client's channel, told to the client (where it still listens) and the log. */
    void exceptionCaught(Throwable cause) {
        if (session.state() == ClientSession.State.CLOSED) {
            return; // the session already ended (a failed handshake, for one) and said why
        }
        Throwable t = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (t instanceof ProtocolException pe) {
            refuse(pe);
        } else if (t instanceof TlsProtocolException tpe) {
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, tpe.getMessage()), tpe.getMessage());
        } else if (session.tlsState().failedOrPending() && t instanceof javax.net.ssl.SSLException) {
            close("TLS handshake failed"); // already logged with its cause by the handshake event
        } else if (t instanceof java.io.IOException) {
            close("client unexpected eof");
        } else {
            Log.global().error("C-" + Long.toHexString(session.id()) + ": unexpected error: " + t);
            fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, "internal error"), "internal error: " + t);
        }
    }

    /** Input that breaks the protocol: its ERROR line (if PgBouncer logs one), then the client gets its error. */
    void refuse(ProtocolException pe) {
        if (pe.errorLine() != null) {
            ClientLog.line(session, Level.ERROR, pe.errorLine());
        }
        fail(pe.error(), pe.getMessage());
    }

    /**
     * Ends the session in PgBouncer's order: "closing because" is logged (when there is a reason),
     * the server is settled, then "pooler error" is logged and only then the error is sent, so
     * that a script reading the log as soon as its client got the error always finds the reason.
     */
    private void end(String reason, PgError sent) {
        if (session.state() == ClientSession.State.CLOSED) {
            return;
        }
        closing = true;
        session.timers().cancelAll();
        if (reason != null && session.context().settings().logDisconnections()) {
            ClientLog.line(session, Log.closingBecause(reason, session.connectTimeMillis(),
                    session.context().clock().currentTimeMillis()));
        }
        session.settle();
        session.moveTo(ClientSession.State.CLOSED);
        session.context().clients().remove(session);
        if (sent != null && session.context().settings().logPoolerErrors()) {
            ClientLog.line(session, Level.WARNING, "pooler error: " + sent.message());
        }
        Channel channel = session.channel();
        if (!channel.isActive()) {
            return;
        }
        if (!channel.isWritable() || TlsInfo.handshakeUnderway(channel)) {
            // nothing may go out in the clear while a TLS handshake is underway
            channel.close();
        } else if (sent != null) {
            channel.writeAndFlush(Encoders.error(channel.alloc(), sent)).addListener(ChannelFutureListener.CLOSE);
        } else {
            Closes.afterQueued(channel);
        }
    }
}
