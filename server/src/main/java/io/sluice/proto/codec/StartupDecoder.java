package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.StartupPacket;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the length-prefixed packets a client sends before the typed message stream:
 * StartupMessage, SSLRequest, GSSENCRequest, CancelRequest. The session removes this decoder
 * once a StartupMessage or CancelRequest arrived.
 */
public final class StartupDecoder extends ByteToMessageDecoder {
    /** PostgreSQL's MAX_STARTUP_PACKET_LENGTH. */
    static final int MAX_STARTUP_LENGTH = 10000;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) {
            return;
        }
        int len = in.getInt(in.readerIndex());
        if (len < 8 || len > MAX_STARTUP_LENGTH) {
            String header = FrameDecoder.headerHex(in);
            in.skipBytes(in.readableBytes());
            throw new ProtocolException("bad packet header: '" + header + "'");
        }
        if (in.readableBytes() < len) {
            return;
        }
        ByteBuf packet = in.readSlice(len);
        packet.skipBytes(4);
        int code = packet.readInt();
        out.add(decodePacket(code, packet));
    }

    static StartupPacket decodePacket(int code, ByteBuf body) {
        switch (code) {
            case StartupPacket.SSL_REQUEST_CODE:
                return new StartupPacket.SslRequest();
            case StartupPacket.GSSENC_REQUEST_CODE:
                return new StartupPacket.GssEncRequest();
            case StartupPacket.CANCEL_REQUEST_CODE:
                if (body.readableBytes() < 8) {
                    throw new ProtocolException("bad cancel request");
                }
                return new StartupPacket.CancelRequest(body.readInt(), body.readInt());
            default:
                break;
        }
        if (code >>> 16 != 3) {
            return new StartupPacket.Unsupported(code);
        }
        Map<String, String> params = new LinkedHashMap<>();
        while (body.isReadable()) {
            String key = readCString(body);
            if (key.isEmpty()) {
                break;
            }
            params.put(key, readCString(body));
        }
        return new StartupPacket.Startup(code, params);
    }

    static String readCString(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new ProtocolException("bad startup packet");
        }
        String s = buf.toString(buf.readerIndex(), end - buf.readerIndex(), StandardCharsets.UTF_8);
        buf.readerIndex(end + 1);
        return s;
    }
}
