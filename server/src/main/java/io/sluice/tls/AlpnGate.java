package io.sluice.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.SslClientHelloHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.Future;

import javax.net.ssl.SSLHandshakeException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a client's ClientHello before the TLS provider does, for the ALPN rule PgBouncer 1.25
 * took from PostgreSQL: a client that offers ALPN without {@code postgresql} gets the fatal
 * alert {@code no_application_protocol}; one that offers no ALPN goes on. Written here rather
 * than through the provider's ALPN selector because BoringSSL under Netty cannot send that
 * alert (its selector only falls back or skips), and the rule must not depend on the provider.
 * Then it hands over to the SslHandler, which reads the buffered ClientHello again.
 */
final class AlpnGate extends SslClientHelloHandler<Boolean> {
    static final String NAME = "tls-alpn";
    /** Larger than any real ClientHello (post-quantum key shares included); bounds what a stranger makes us buffer. */
    private static final int MAX_CLIENT_HELLO = 16 * 1024;
    private static final int EXT_ALPN = 16;
    private static final byte[] NO_APPLICATION_PROTOCOL_ALERT = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 120};

    private final ClientTls tls;
    /** Refused: whatever else arrives is dropped, not parsed again. */
    private boolean refused;

    AlpnGate(ClientTls tls) {
        super(MAX_CLIENT_HELLO);
        this.tls = tls;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, java.util.List<Object> out) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        super.decode(ctx, in, out);
    }

    @Override
    protected Future<Boolean> lookup(ChannelHandlerContext ctx, ByteBuf clientHello) {
        // null: not a parsable ClientHello; the SslHandler reports that in its own words
        return ctx.executor().newSucceededFuture(clientHello == null || offersPostgresqlOrNothing(clientHello));
    }

    @Override
    protected void onLookupComplete(ChannelHandlerContext ctx, Future<Boolean> future) {
        if (Boolean.TRUE.equals(future.getNow())) {
            ctx.pipeline().replace(this, "tls", tls.newHandler(ctx.alloc()));
            return;
        }
        refused = true;
        ctx.writeAndFlush(Unpooled.wrappedBuffer(NO_APPLICATION_PROTOCOL_ALERT)).addListener(ChannelFutureListener.CLOSE);
        ctx.fireUserEventTriggered(new SslHandshakeCompletionEvent(new SSLHandshakeException(
                "received SSL connection request with unexpected ALPN protocol")));
    }

    /**
     * Walks the ClientHello body (from client_version on) to the ALPN extension. A malformed
     * hello counts as "no ALPN": the provider's own parser rejects it next.
     */
    static boolean offersPostgresqlOrNothing(ByteBuf hello) {
        int at = hello.readerIndex() + 2 + 32; // client_version, random
        int end = hello.writerIndex();
        if (at + 1 > end) {
            return true;
        }
        at += 1 + hello.getUnsignedByte(at); // session id
        if (at + 2 > end) {
            return true;
        }
        at += 2 + hello.getUnsignedShort(at); // cipher suites
        if (at + 1 > end) {
            return true;
        }
        at += 1 + hello.getUnsignedByte(at); // compression methods
        if (at + 2 > end) {
            return true;
        }
        int extEnd = Math.min(end, at + 2 + hello.getUnsignedShort(at));
        at += 2;
        while (at + 4 <= extEnd) {
            int type = hello.getUnsignedShort(at);
            int len = hello.getUnsignedShort(at + 2);
            at += 4;
            if (at + len > extEnd) {
                return true;
            }
            if (type == EXT_ALPN) {
                return alpnListHasPostgresql(hello, at, len);
            }
            at += len;
        }
        return true;
    }

    private static boolean alpnListHasPostgresql(ByteBuf hello, int at, int len) {
        if (len < 2) {
            return false;
        }
        int end = at + Math.min(len, 2 + hello.getUnsignedShort(at));
        at += 2;
        while (at < end) {
            int n = hello.getUnsignedByte(at++);
            if (at + n > end) {
                return false;
            }
            if (TlsContexts.ALPN.equals(hello.toString(at, n, StandardCharsets.US_ASCII))) {
                return true;
            }
            at += n;
        }
        return false;
    }
}
