package io.sluice.tls;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * An established TLS session as Sluice reports it.
 *
 * @param peerCertificate the peer's verified certificate (leaf), or null when it sent none
 * @param localCertificate the certificate this side presented (leaf), or null when none
 */
public record TlsInfo(String protocol, String cipher, X509Certificate peerCertificate,
                      X509Certificate localCertificate) {

    /** The session on this channel once its handshake is done; null without TLS or before. */
    public static TlsInfo of(Channel channel) {
        SslHandler h = channel == null ? null : channel.pipeline().get(SslHandler.class);
        if (h == null || !h.handshakeFuture().isSuccess()) {
            return null;
        }
        SSLSession s = h.engine().getSession();
        X509Certificate peer = null;
        // a server side that asked for no client certificate has none to read: asking would
        // throw (and fill in a stack trace) on every TLS login
        boolean askedPeer = h.engine().getUseClientMode() || h.engine().getNeedClientAuth()
                || h.engine().getWantClientAuth();
        try {
            Certificate[] chain = askedPeer ? s.getPeerCertificates() : new Certificate[0];
            peer = chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
        } catch (SSLPeerUnverifiedException e) {
            // no client certificate: fine unless the login needs one
        }
        Certificate[] local = s.getLocalCertificates();
        X509Certificate own = local != null && local.length > 0 && local[0] instanceof X509Certificate x ? x : null;
        return new TlsInfo(s.getProtocol(), s.getCipherSuite(), peer, own);
    }

    /**
     * SCRAM channel binding data for a client of Sluice: {@code tls-server-end-point} of the
     * certificate Sluice presented on this session; null when it has none.
     */
    public byte[] serverEndPointAsServer() {
        return ChannelBinding.tlsServerEndPoint(localCertificate);
    }

    /** The same for Sluice as a client of PostgreSQL: of the certificate the server presented. */
    public byte[] serverEndPointAsClient() {
        return ChannelBinding.tlsServerEndPoint(peerCertificate);
    }

    /**
     * A TLS handshake has begun on this channel and not finished: nothing can be said to the
     * peer in the PostgreSQL protocol now (PgBouncer's sends fail in that state too).
     */
    public static boolean handshakeUnderway(Channel channel) {
        if (channel.pipeline().get(AlpnGate.NAME) != null) {
            return true;
        }
        SslHandler h = channel.pipeline().get(SslHandler.class);
        return h != null && !h.handshakeFuture().isSuccess();
    }

    /**
     * PgBouncer's SHOW CLIENTS/SERVERS {@code tls} text and log {@code tls=} value: protocol and
     * cipher in OpenSSL's spelling. PgBouncer appends {@code /ECDH=<curve>}; neither provider
     * tells which group was negotiated, so that part is left out rather than guessed.
     */
    public String describe() {
        return protocol + "/" + CipherNames.openSsl(cipher);
    }
}
