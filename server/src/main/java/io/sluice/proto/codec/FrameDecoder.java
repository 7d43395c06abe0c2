package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.StartupPacket;

import java.util.List;

/**
 * Splits the typed message stream into {@link Frame}s (ranges of the read buffer, each holding a
 * reference to it; no copy). Rejects lengths
 * below 4 and packets above {@code max_packet_size}.
 *
 * <p>A message of a type the pooler only relays ({@code relayOnlyTypes}) that is larger than
 * {@link #WHOLE_LIMIT} is passed on in pieces as its bytes arrive, so a 1 GB row or a huge
 * CopyData is never held whole: a first frame with its type and header, then
 * {@link Frame#CONTINUATION} frames.
 *
 * <p>Whole messages of such a type that follow one another in the buffer become one frame, a
 * run: a result's DataRows, a COPY's CopyData. The relay passes them on untouched, and every
 * frame costs it an object, a pipeline hop and a dispatch (about 70 ns a DataRow, a third or
 * more of what a hundred-row result cost Sluice above PgBouncer). A reader of the rows themselves walks the run
 * ({@link BackendDecoding#dataRows}).
 *
 * <p>With a {@link FrameReader} (the session or server connection right behind the decoder), the
 * frames of each read go to it by a direct call once the read buffer is retained for them all:
 * handing each message down the pipeline cost a context search and a handler call per message
 * (1–3 % of the event loop's samples). Without one they go down the pipeline as usual.
 *
 * <p>A client's decoder starts in the login phase, where a message must fit PgBouncer's
 * {@code pkt_buf} as the startup packet must: a login needs a few hundred bytes, and an
 * unauthenticated peer must not make the pooler hold more. An oversized message is refused as
 * soon as its header is read, before any of its body is buffered; {@link #loginDone()} lifts
 * the limit to {@code max_packet_size}. After any refusal the rest of the input is dropped
 * unread while the session closes the connection.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    /**
     * Netty's merge cumulator, but the bytes already passed on are dropped before each append.
     * Frames hold references to the cumulation; while any is unwritten Netty skips its own
     * discard, and with a client slower than PostgreSQL the cumulation kept every byte ever read
     * (measured: 128 MiB for one 2 GB result). Once nothing else holds it (refCnt 1), moving the
     * partial message to the front is cheap; while frames are out, merge copies only unread bytes.
     */
    private static final Cumulator COMPACTING = (alloc, cumulation, in) -> {
        if (cumulation.refCnt() == 1 && cumulation.readerIndex() > 0) {
            cumulation.discardReadBytes();
        }
        return MERGE_CUMULATOR.cumulate(alloc, cumulation, in);
    };

    /** PgBouncer's words for a message of a type that does not exist. */
    static final String UNKNOWN_TYPE = "unknown pkt";

    /** Messages up to this size (header included) are always assembled whole. */
    public static final int WHOLE_LIMIT = 64 * 1024;

    private volatile long maxPacketSize;
    /** The relay-only types as bits (type t is bit t of the 128; types are ASCII): asked for every message. */
    private final long relayOnlyLow;
    private final long relayOnlyHigh;
    private final FrameReader reader;
    /** Bytes of a message being passed on in pieces that have not arrived yet. */
    private long remaining;
    /** Largest whole message (type byte included) before login completes; 0 once logged in. */
    private int loginLimit;
    private boolean refused;

    /** A decoder with no login phase (server connections). */
    public FrameDecoder(long maxPacketSize, String relayOnlyTypes) {
        this(maxPacketSize, 0, relayOnlyTypes, null);
    }

    /**
     * @param loginLimit largest whole message accepted until {@link #loginDone()} (PgBouncer's
     *                   {@code pkt_buf}); 0 for none
     * @param relayOnlyTypes message types that may be passed on in pieces and in runs, e.g. "Dd"
     * @param reader         who takes the frames by a direct call; null to pass them down the pipeline
     */
    public FrameDecoder(long maxPacketSize, int loginLimit, String relayOnlyTypes, FrameReader reader) {
        setCumulator(COMPACTING);
        this.maxPacketSize = maxPacketSize;
        this.loginLimit = loginLimit;
        long low = 0;
        long high = 0;
        for (char t : relayOnlyTypes.toCharArray()) {
            if (t < 64) {
                low |= 1L << t;
            } else if (t < 128) {
                high |= 1L << t;
            } else {
                throw new IllegalArgumentException("not a message type: " + (int) t);
            }
        }
        this.relayOnlyLow = low;
        this.relayOnlyHigh = high;
        this.reader = reader;
    }

    public void maxPacketSize(long value) {
        this.maxPacketSize = value;
    }

    /** The client is authenticated: from the next message on only {@code max_packet_size} applies. */
    public void loginDone() {
        loginLimit = 0;
    }

    /** Up to 8 header bytes in hex, as PgBouncer prints them in "bad packet header". */
    static String headerHex(ByteBuf in) {
        return io.netty.buffer.ByteBufUtil.hexDump(in, in.readerIndex(), Math.min(8, in.readableBytes()));
    }

    /** Bytes received but not yet decoded: a message that has not arrived whole. */
    public int buffered() {
        return actualReadableBytes();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int before = out.size();
        try {
            decodeFrames(in, out);
        } finally {
            int made = out.size() - before;
            if (made > 0) {
                in.retain(made); // one count for all of them: each retain is an atomic instruction
                if (reader != null) {
                    readAll(ctx, out); // after a refusal too: the frames before it go first, as down the pipeline
                }
            }
        }
    }

    /**
     * Hands every frame in {@code out} to the reader and empties it. Netty passes on and clears
     * {@code out} before each {@code decode}, so all of them are this call's. A reader's failure
     * goes where it would from the pipeline, to the handlers' {@code exceptionCaught}, and the
     * next frame is still read.
     */
    private void readAll(ChannelHandlerContext ctx, List<Object> out) {
        for (int i = 0, n = out.size(); i < n; i++) {
            Frame f = (Frame) out.get(i);
            try {
                reader.frameRead(f);
            } catch (Throwable t) {
                ctx.fireExceptionCaught(t);
            }
        }
        out.clear();
    }

    private void decodeFrames(ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (remaining > 0 && in.isReadable()) {
            int n = (int) Math.min(remaining, in.readableBytes());
            out.add(frame(Frame.CONTINUATION, in, n));
            remaining -= n;
        }
        while (in.readableBytes() >= 5) {
            int start = in.readerIndex();
            byte type = in.getByte(start);
            int len = in.getInt(start + 1);
            if (len < 4 || (long) len + 1 > maxPacketSize) {
                throw refuse(in, "bad packet header: '" + headerHex(in) + "'");
            }
            if (type == Frame.CONTINUATION) {
                // no message has type 0, and a frame of type 0 means "more of the last message":
                // passed on, it reached PostgreSQL, which killed the backend over it
                if (in.readableBytes() < 8) {
                    return;
                }
                throw refuse(in, startupShaped(in) ? UNKNOWN_TYPE : "bad packet header: '" + headerHex(in) + "'");
            }
            if (loginLimit > 0 && (long) len + 1 > loginLimit) {
                throw refuse(in, StartupDecoder.PARTIAL_PACKET);
            }
            if (in.readableBytes() < len + 1) {
                if (len + 1 > WHOLE_LIMIT && relayOnly(type)) {
                    int n = in.readableBytes();
                    out.add(frame(type, in, n));
                    remaining = len + 1L - n;
                }
                return;
            }
            if (loginLimit > 0) {
                // one message at a time while logging in: handling it may end the login phase,
                // and the next header must be judged by the limit that then applies
                out.add(frame(type, in, len + 1));
                return;
            }
            int n = len + 1;
            if (relayOnly(type)) {
                n = runLength(in, start, n, type);
            }
            out.add(frame(type, in, n));
        }
    }

    private boolean relayOnly(byte type) {
        return type >= 0 && ((type < 64 ? relayOnlyLow : relayOnlyHigh) & 1L << type) != 0; // shifts take type % 64
    }

    /**
     * Bytes from {@code start} of the message there ({@code first} bytes long) and of the whole
     * messages of the same type right after it. A header that is bad or not followed by its whole
     * message ends the run, and the loop judges it next as it would any message.
     */
    private int runLength(ByteBuf in, int start, int first, byte type) {
        int end = in.writerIndex();
        long max = maxPacketSize;
        int at = start + first;
        while (end - at >= 5 && in.getByte(at) == type) {
            int len = in.getInt(at + 1);
            if (len < 4 || (long) len + 1 > max || (long) len + 1 > end - at) {
                break;
            }
            at += len + 1;
        }
        return at - start;
    }

    /** The next {@code n} bytes of {@code in} as a frame, for which {@link #decode} retains {@code in}. */
    private static Frame frame(byte type, ByteBuf in, int n) {
        Frame f = new Frame(type, in, in.readerIndex(), n);
        in.skipBytes(n);
        return f;
    }

    /**
     * PgBouncer reads a type-0 header as a startup-phase one (a 16-bit length, then a code): a
     * startup, SSL, GSS or cancel packet sent after login is an "unknown pkt" there, anything
     * else a "bad packet header". Same answers here.
     */
    private static boolean startupShaped(ByteBuf in) {
        int at = in.readerIndex();
        int code = in.getInt(at + 4);
        return in.getShort(at) == 0 && (code >>> 16 == 3 || code >>> 16 == 2 || code == StartupPacket.SSL_REQUEST_CODE
                || code == StartupPacket.GSSENC_REQUEST_CODE || code == StartupPacket.CANCEL_REQUEST_CODE);
    }

    private ProtocolException refuse(ByteBuf in, String message) {
        refused = true;
        in.skipBytes(in.readableBytes());
        return new ProtocolException(message);
    }
}
