package io.sluice.proto;

import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCounted;

/**
 * One protocol message (type byte, length, body) as it came off the wire. The relay passes
 * frames on untouched; only the pooler-relevant types are decoded into records. A large message
 * of a type the pooler only relays (DataRow, CopyData) may come in pieces: a first frame with the
 * real type, the header and the start of the body, then {@link #CONTINUATION} frames with the rest.
 *
 * <p>A frame is a range of a buffer, {@link #start()} to {@link #end()} of {@link #buffer()},
 * and owns one reference to that buffer; the frame decoder's frames share its read buffer. No
 * slice object is made per message: the relay writes frames as they are, and the
 * {@code RunJoiner} before the socket makes one slice for each run of them that lies side by
 * side, as PgBouncer sends a run of its buffer at once.
 *
 * <p>Its own count is a plain int: a frame lives on the event loop that read it (a session's
 * client and server channels share one loop), and Netty's {@code AbstractReferenceCounted} would
 * add an atomic counter object to each of the ten or so frames of every transaction.
 */
public final class Frame implements ReferenceCounted {
    /** Type of a frame that carries more body bytes of the message before it. */
    public static final byte CONTINUATION = 0;

    private final byte type;
    private ByteBuf buffer;
    private final int start;
    private final int length;
    private int refs = 1;

    /** The readable bytes of {@code bytes}, whose reference the frame takes over. */
    public Frame(byte type, ByteBuf bytes) {
        this(type, bytes, bytes.readerIndex(), bytes.readableBytes());
    }

    /**
     * {@code length} bytes of {@code buffer} from {@code start}; the frame takes over one
     * reference to {@code buffer} (the caller retained it for the frame).
     */
    public Frame(byte type, ByteBuf buffer, int start, int length) {
        this.type = type;
        this.buffer = buffer;
        this.start = start;
        this.length = length;
    }

    public byte type() {
        return type;
    }

    /**
     * The buffer the message lies in, to read with absolute indexes from {@link #start()} to
     * {@link #end()}: its own reader and writer indexes are not the frame's. No reference is
     * passed.
     */
    public ByteBuf buffer() {
        return buffer;
    }

    /** Index in {@link #buffer()} of the type byte (for a continuation: of its first body byte). */
    public int start() {
        return start;
    }

    /** Index in {@link #buffer()} just past the message. */
    public int end() {
        return start + length;
    }

    /** The message including the 5-byte header, as a view (no copy, no extra reference). */
    public ByteBuf bytes() {
        return buffer.slice(start, length);
    }

    /** Index in {@link #buffer()} of the first body byte, after the 5-byte header: fields are read there in place. */
    public int bodyStart() {
        return start + 5;
    }

    /** The body after the 5-byte header, as a view (no copy, no extra reference). */
    public ByteBuf body() {
        return buffer.slice(bodyStart(), length - 5);
    }

    /**
     * Hands this frame's reference to its bytes to the caller, as a buffer of just the message
     * (to write it on elsewhere than through a run joiner). The frame is spent: its own release
     * does nothing more.
     */
    public ByteBuf takeBytes() {
        return handOver(takeBuffer(), start, start + length);
    }

    /**
     * Bytes {@code from} to {@code to} of {@code b} as a buffer that carries the caller's one
     * reference to {@code b}: {@code b} itself when it holds just those bytes, else a plain slice,
     * which shares {@code b}'s count and so passes the reference on without taking another.
     */
    public static ByteBuf handOver(ByteBuf b, int from, int to) {
        return from == b.readerIndex() && to == b.writerIndex() ? b : b.slice(from, to - from);
    }

    /**
     * Hands this frame's reference to {@link #buffer()} to the caller, which reads the message
     * from {@link #start()} to {@link #end()}. The frame is spent: its own release does nothing
     * more.
     */
    public ByteBuf takeBuffer() {
        ByteBuf b = buffer;
        if (b == null) {
            throw new IllegalReferenceCountException(0);
        }
        buffer = null;
        return b;
    }

    public int length() {
        return length;
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
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
        return true;
    }

    @Override
    public Frame touch() {
        return touch(null);
    }

    @Override
    public Frame touch(Object hint) {
        if (buffer != null) {
            buffer.touch(hint);
        }
        return this;
    }

    @Override
    public String toString() {
        return "Frame(" + (char) type + ", " + (buffer == null ? "passed on" : length + " bytes") + ")";
    }
}
