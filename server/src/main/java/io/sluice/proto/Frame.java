package io.sluice.proto;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;
import io.netty.util.AbstractReferenceCounted;

/**
 * One whole protocol message (type byte, length, body) as it came off the wire. The relay
 * passes frames on untouched; only the pooler-relevant types are decoded into records.
 * Owns one reference to {@link #bytes()}.
 */
public final class Frame extends AbstractReferenceCounted {
    private final byte type;
    private final ByteBuf bytes;

    public Frame(byte type, ByteBuf bytes) {
        this.type = type;
        this.bytes = bytes;
    }

    public byte type() {
        return type;
    }

    /** The whole message including the 5-byte header. */
    public ByteBuf bytes() {
        return bytes;
    }

    /** The body after the 5-byte header, as a view (no copy, no extra reference). */
    public ByteBuf body() {
        return bytes.slice(bytes.readerIndex() + 5, bytes.readableBytes() - 5);
    }

    public int length() {
        return bytes.readableBytes();
    }

    @Override
    protected void deallocate() {
        bytes.release();
    }

    @Override
    public ReferenceCounted touch(Object hint) {
        bytes.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "Frame(" + (char) type + ", " + bytes.readableBytes() + " bytes)";
    }
}
