package io.sluice.proto;

import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCounted;

/**
 * One protocol message (type byte, length, body) as it came off the wire. The relay passes
 * frames on untouched; only the pooler-relevant types are decoded into records. A large message
 * of a type the pooler only relays (DataRow, CopyData) may come in pieces: a first frame with the
 * real type, the header and the start of the body, then {@link #CONTINUATION} frames with the rest.
 * Owns one reference to {@link #bytes()}.
 *
 * <p>Its own count is a plain int: a frame lives on the event loop that read it (a session's
 * client and server channels share one loop), and Netty's {@code AbstractReferenceCounted} would
 * add an atomic counter object to each of the ten or so frames of every transaction.
 */
public final class Frame implements ReferenceCounted {
    /** Type of a frame that carries more body bytes of the message before it. */
    public static final byte CONTINUATION = 0;

    private final byte type;
    private ByteBuf bytes;
    private int refs = 1;

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
    public int refCnt() {
        return refs;
    }

    @Override
    public Frame retain() {
        return retain(1);
    }

    @Override
    public Frame retain(int increment) {
        if (increment <= 0 || refs <= 0) {
            throw new IllegalReferenceCountException(refs, increment);
        }
        refs += increment;
        return this;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0 || refs < decrement) {
            throw new IllegalReferenceCountException(refs, -decrement);
        }
        refs -= decrement;
        if (refs > 0) {
            return false;
        }
        if (bytes != null) {
            bytes.release();
            bytes = null;
        }
        return true;
    }

    @Override
    public Frame touch() {
        return touch(null);
    }

    @Override
    public Frame touch(Object hint) {
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
