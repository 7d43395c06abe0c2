package io.sluice.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

import java.util.List;

/**
 * One applied {@code client_tls_*} configuration: whether an SSLRequest gets 'S', whether a
 * plain login is refused, and the handshake of a new client. Immutable; RELOAD swaps in a new
 * one for new connections while connections keep the context they started with.
 */
public final class ClientTls {
    private final TlsSettings settings;
    private final SslContext context;
    private final List<String> warnings;

    ClientTls(TlsSettings settings, SslContext context, List<String> warnings) {
        this.settings = settings;
        this.context = context;
        this.warnings = List.copyOf(warnings);
    }

    /** Client TLS off: every SSLRequest is answered 'N' (tests and harnesses without a config). */
    public static ClientTls disabled() {
        return new ClientTls(new TlsSettings("client_tls", SslMode.DISABLE, "", "", "", "secure", "default", "",
                "auto", "auto"), null, List.of());
    }

    public SslMode mode() {
        return settings.mode();
    }

    TlsSettings settings() {
        return settings;
    }

    List<String> warnings() {
        return warnings;
    }

    public boolean enabled() {
        return context != null;
    }

    /** 'S' for an SSLRequest: TLS is on and the client is not on the unix socket (PgBouncer answers 'N' there). */
    public boolean acceptsSslRequest(boolean unixSocket) {
        return enabled() && !unixSocket;
    }

    /** A plain StartupMessage is refused with "SSL required" (unix-socket clients are exempt, as in PgBouncer). */
    public boolean requiresTls(boolean unixSocket) {
        return settings.mode().requiresTls() && !unixSocket;
    }

    /**
     * Puts the handshake of an accepted SSLRequest into the pipeline before {@code beforeHandler}
     * (the startup packet decoder): the next bytes must start a TLS record, else the client gets
     * {@link TlsProtocolException} (it is speaking plaintext after 'S').
     */
    public void startAfterSslRequest(ChannelPipeline pipeline, String beforeHandler) {
        pipeline.addBefore(beforeHandler, HandshakeStart.NAME, new HandshakeStart(() -> this, true));
    }

    SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler h = context.newHandler(alloc);
        h.setHandshakeTimeoutMillis(0); // client_login_timeout bounds the whole login, as in PgBouncer
        return h;
    }
}
