package io.sluice.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;
import java.util.function.Supplier;

/**
 * Looks at the first byte a client sends at the point where TLS may start. 0x16 (a TLS
 * handshake record) starts the handshake: {@link AlpnGate}, then the SslHandler. Otherwise,
 * at connection start (direct-TLS detection, PostgreSQL 17's {@code sslnegotiation=direct})
 * this handler just steps aside for the plain startup packet; after an SSLRequest was answered
 * 'S' it is an error the client can read in plaintext.
 */
final class HandshakeStart extends ByteToMessageDecoder {
    static final String NAME = "tls-start";
    private static final int TLS_HANDSHAKE_RECORD = 0x16;

    private final Supplier<ClientTls> tls;
    private final boolean afterSslRequest;

    HandshakeStart(Supplier<ClientTls> tls, boolean afterSslRequest) {
        this.tls = tls;
        this.afterSslRequest = afterSslRequest;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        ClientTls current = tls.get();
        boolean tlsRecord = in.getUnsignedByte(in.readerIndex()) == TLS_HANDSHAKE_RECORD;
        if (tlsRecord && current.enabled()) {
            ctx.pipeline().addAfter(ctx.name(), AlpnGate.NAME, new AlpnGate(current));
        } else if (afterSslRequest) {
            in.skipBytes(in.readableBytes());
            throw new TlsProtocolException("expected a TLS handshake after the SSLRequest was accepted");
        }
        // what is buffered goes on to the next handler when this one is gone
        ctx.pipeline().remove(this);
    }
}
