package io.sluice.session;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.sluice.log.Level;
import io.sluice.proto.PgError;
import io.sluice.proto.SqlState;
import io.sluice.proto.codec.Encoders;
import io.sluice.proto.codec.StartupDecoder;
import io.sluice.tls.ClientTls;
import io.sluice.tls.HandshakeErrors;
import io.sluice.tls.TlsInfo;

import java.security.cert.X509Certificate;

/**
 * One client's TLS: the answer to its SSLRequest, the end of its handshake, and what the
 * login asks of it (is TLS missing where required; the verified client certificate).
 */
final class ClientTlsState {
    private final ClientSession session;
    /** TLS started (SSLRequest accepted, or direct); {@link #info} once the handshake is done. */
    private boolean started;
    private TlsInfo info;

    ClientTlsState(ClientSession session) {
        this.session = session;
    }

    TlsInfo info() {
        return info;
    }

    /** Started but not up: a handshake failed or is underway. */
    boolean failedOrPending() {
        return started && info == null;
    }

    /**
     * An SSLRequest: 'S' and the handshake when client TLS is on and this is TCP, else 'N'
     * (PgBouncer's rules). A second request, inside TLS, ends the connection silently as in
     * PgBouncer; bytes that came with the request are refused as PostgreSQL does, since they
     * were sent before the client could have seen 'S'.
     */
    void sslRequested() {
        if (started) {
            session.close("SSL req inside SSL");
            return;
        }
        ClientLog.debug(session, Level.NOISE, () -> "C: req SSL");
        Channel ch = session.channel();
        StartupDecoder startup = ch.pipeline().get(StartupDecoder.class);
        if (refusedUnencryptedData(session, startup, "SSL request")) {
            return;
        }
        ClientTls t = session.context().clientTls();
        if (!t.acceptsSslRequest(session.unixSocket())) {
            ClientLog.debug(session, Level.NOISE, () -> "P: nak");
            ch.writeAndFlush(Encoders.refuseEncryption());
            return;
        }
        ClientLog.debug(session, Level.NOISE, () -> "P: SSL ack");
        started = true;
        t.startAfterSslRequest(ch.pipeline(), ch.pipeline().context(startup).name());
        ch.writeAndFlush(Encoders.acceptEncryption(ch.alloc()));
    }

    /**
     * Bytes that came with an SSLRequest or GSSENCRequest were sent before the client could have
     * seen the answer: unencrypted, maybe injected (CVE-2021-23214). PgBouncer and PostgreSQL end
     * the connection whether or not they would have started TLS; so does this. True when it did.
     */
    static boolean refusedUnencryptedData(ClientSession session, StartupDecoder startup, String request) {
        if (startup.buffered() == 0) {
            return false;
        }
        String reason = "received unencrypted data after " + request;
        session.fail(PgError.fatal(SqlState.PROTOCOL_VIOLATION, reason), reason);
        return true;
    }

    /** The handshake ended (after an SSLRequest or direct): record the session, or log and close. */
    void handshakeDone(SslHandshakeCompletionEvent e) {
        started = true;
        if (e.isSuccess()) {
            info = TlsInfo.of(session.channel());
            return;
        }
        ClientLog.line(session, Level.WARNING, "TLS handshake error: " + HandshakeErrors.describe(e.cause()));
        session.close("TLS handshake failed");
    }

    /** PgBouncer refuses a plain StartupMessage over TCP when client_tls_sslmode is require or stricter. */
    boolean missing() {
        return info == null && session.context().clientTls().requiresTls(session.unixSocket());
    }

    /**
     * SCRAM channel binding data of this client's TLS session (tls-server-end-point of the
     * certificate Sluice presented); null without TLS or when RFC 5929 defines none for it.
     */
    byte[] channelBinding() {
        return info == null ? null : info.serverEndPointAsServer();
    }

    /** The client certificate the handshake verified, for auth_type = cert; null without one. */
    X509Certificate peerCertificate() {
        return info == null ? null : info.peerCertificate();
    }
}
