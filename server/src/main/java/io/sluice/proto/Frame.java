package io.sluice.proto;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;
import io.netty.util.AbstractReferenceCounted;

/**
 * One protocol message (type byte, length, body) as it came off the wire. The relay passes
 * frames on untouched; only the pooler-relevant types are decoded into records. A large message
 * of a type the pooler only relays (DataRow, CopyData) may come in pieces: a first frame with the
 * real type, the header and the start of the body, then {@link #CONTINUATION} frames with the rest.
 * Owns one reference to {@link #bytes()}.
 */
public final class Frame extends AbstractReferenceCounted {
    /** Type of a frame that carries more body bytes of the message before it. */
    public static final byte CONTINUATION = 0;

    private final byte type;
    private ByteBuf bytes;

    public Frame(byte type, ByteBuf bytes) {
        this.type = type;
        this.bytes = bytes;
    }

    public byte type() {
        return type;
    }

    /** The message including the 5-byte header (for a continuation: just more body bytes). */
    public ByteBuf bytes() {
        return bytes;
    }

    /** The body after the 5-byte header, as a view (no copy, no extra reference). */
    public ByteBuf body() {
        return bytes.slice(bytes.readerIndex() + 5, bytes.readableBytes() - 5);
    }

    /**
     * Hands this frame's reference to its bytes to the caller (to write them on), saving a retain
     * and a release per relayed message. The frame is spent: its own release does nothing more.
     */
    public ByteBuf takeBytes() {
        ByteBuf b = bytes;
        bytes = null;
        return b;
    }

    public int length() {
        return bytes.readableBytes();
    }

    @Override
    protected void deallocate() {
        if (bytes != null) {
            bytes.release();
        }
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        if (bytes != null) {
            bytes.touch(hint);
        }
        return this;
    }

    @Override
    public String toString() {
        return "Frame(" + (char) type + ", " + (bytes == null ? "passed on" : bytes.readableBytes() + " bytes") + ")";
    }
}
