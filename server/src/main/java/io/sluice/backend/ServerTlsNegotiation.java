package io.sluice.backend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.sluice.log.Level;
import io.sluice.log.Log;
import io.sluice.proto.SqlState;
import io.sluice.tls.HandshakeErrors;
import io.sluice.tls.ServerTls;
import io.sluice.tls.TlsInfo;

import java.util.List;

/**
 * The SSLRequest exchange of a new server connection, in PgBouncer's order and words: one
 * answer byte; 'S' starts the handshake (then the startup packet goes out encrypted), 'N' goes
 * on in plain unless server_tls_sslmode demands TLS ("server refused SSL"). Bytes after the
 * answer would be unencrypted and possibly injected, so they end the connection. Removes
 * itself once the startup packet can be sent.
 */
final class ServerTlsNegotiation extends ByteToMessageDecoder {
    static final String NAME = "server-tls";

    private final ServerTls tls;
    private final ServerConnection conn;
    private final ServerLogin login;
    private final boolean logConnections;
    private boolean answered;

    ServerTlsNegotiation(ServerTls tls, ServerConnection conn, ServerLogin login, boolean logConnections) {
        this.tls = tls;
        this.conn = conn;
        this.login = login;
        this.logConnections = logConnections;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (answered) {
            out.add(in.readRetainedSlice(in.readableBytes())); // decrypted bytes, until the handshake event
            return;
        }
        answered = true;
        if (in.getUnsignedByte(in.readerIndex()) == 'E') {
            // an ErrorResponse instead of S/N: a server refusing every connection before any
            // startup packet (starting up, too many clients). As libpq does, the login reads it
            // as the server's answer, so 57P03 is retried like any "starting up"
            out.add(in.readRetainedSlice(in.readableBytes()));
            ctx.pipeline().remove(this);
            return;
        }
        int answer = in.readUnsignedByte();
        if (answer != 'S' && answer != 'N') {
            fail(in, "bad sslreq answer");
        } else if (in.isReadable()) {
            fail(in, "received unencrypted data after SSL response");
        } else if (answer == 'N' && tls.requiresTls()) {
            fail(in, "server refused SSL");
        } else if (answer == 'N') {
            ctx.pipeline().remove(this);
            conn.sendStartup();
        } else {
            BackendTarget t = conn.target();
            ctx.pipeline().addBefore(ctx.name(), "tls", tls.newHandler(ctx.alloc(), t.host(), t.port()));
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent e) {
            if (e.isSuccess()) {
                TlsInfo info = TlsInfo.of(ctx.channel());
                Log.global().server(logConnections ? Level.LOG : Level.NOISE, conn.id(), conn.database(), conn.user(),
                        conn.remote().address(), conn.remote().port(),
                        "SSL established: " + (info == null ? "" : info.describe()));
                ctx.pipeline().remove(this);
                conn.sendStartup();
            } else {
                fail(null, "TLS handshake error: " + HandshakeErrors.describe(e.cause()));
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    private void fail(ByteBuf in, String message) {
        if (in != null) {
            in.skipBytes(in.readableBytes());
        }
        // a TLS mismatch (untrusted CA, wrong host name, no SSL under require) is configuration:
        // a retry meets the same answer, so it is a refused login, which fails the waiting clients
        login.rejected(SqlState.CONNECTION_FAILURE, message);
        conn.close(message);
    }
}
