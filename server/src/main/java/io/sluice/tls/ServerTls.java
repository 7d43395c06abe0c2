package io.sluice.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

import java.util.List;

/**
 * One applied {@code server_tls_*} configuration, for Sluice's connections to PostgreSQL:
 * whether to send SSLRequest, what an 'N' means, and the handshake (verify-ca checks the CA,
 * verify-full the host name too).
 */
public final class ServerTls {
    private final TlsSettings settings;
    private final SslContext context;
    private final List<String> warnings;

    ServerTls(TlsSettings settings, SslContext context, List<String> warnings) {
        this.settings = settings;
        this.context = context;
        this.warnings = List.copyOf(warnings);
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

    /** Send an SSLRequest first? Never over a unix socket, as PgBouncer. */
    public boolean appliesTo(boolean unixSocket) {
        return context != null && !unixSocket;
    }

    /** A server's 'N' ends the connection ("server refused SSL") instead of continuing in plain. */
    public boolean requiresTls() {
        return settings.mode().requiresTls();
    }

    /** The client-side handler; {@code host} is what verify-full checks the certificate against. */
    public SslHandler newHandler(ByteBufAllocator alloc, String host, int port) {
        SslHandler h = context.newHandler(alloc, host, port);
        h.setHandshakeTimeoutMillis(0); // server_connect_timeout bounds the whole login
        return h;
    }
}
