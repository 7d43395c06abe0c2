package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;

/** Low-level writing helpers shared by the encoders: message header with back-patched length. */
final class Wire {
    private Wire() {
    }

    /** Starts a typed message; returns the writer index of the length field. */
    static int begin(ByteBuf buf, char type) {
        buf.writeByte(type);
        int lengthAt = buf.writerIndex();
        buf.writeInt(0);
        return lengthAt;
    }

    /** Starts an untyped (startup-phase) packet. */
    static int beginUntyped(ByteBuf buf) {
        int lengthAt = buf.writerIndex();
        buf.writeInt(0);
        return lengthAt;
    }

    static void end(ByteBuf buf, int lengthAt) {
        buf.setInt(lengthAt, buf.writerIndex() - lengthAt);
    }

    static void cstring(ByteBuf buf, String s) {
        ByteBufUtil.writeUtf8(buf, s);
        buf.writeByte(0);
    }

    static ByteBuf buffer(ByteBufAllocator alloc) {
        return alloc.buffer(64);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
