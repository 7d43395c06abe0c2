package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.sluice.proto.Frame;

/**
 * Joins consecutive relayed messages that lie side by side in one read buffer into one write, as
 * PgBouncer sends a run of its buffer at once. The relay passes each protocol message on as its
 * own {@link Frame} (Parse, Bind, Execute, Sync from one client read; ParseComplete …
 * ReadyForQuery from one server read), and Netty pays per message written: an outbound entry, a
 * gather slot, a release and its byte accounting. Here a frame that begins where the pending run
 * ends, in the same buffer, only lengthens the run, and a run becomes one slice when it goes on:
 * no object per message. Slices of one buffer written side by side join the same way. Anything
 * else (a message Sluice made, a write with a promise, another buffer) passes the run on first,
 * so the order on the wire is the order of the writes. The run goes on at the next flush, as
 * Netty would send it no sooner.
 *
 * <p>Sits right before the handler that writes (the session or the server connection), so every
 * write of that handler, through the channel or its context, passes here; TLS, nearer the
 * head, encrypts the joined run.
 */
public final class RunJoiner extends ChannelOutboundHandlerAdapter implements FrameSink {
    public static final String NAME = "join";

    /** A pending run of frames: the buffer they lie in (one reference owned), or null. */
    private ByteBuf frames;
    /** Indexes in {@link #frames} of the run's first byte and just past its last. */
    private int framesFrom;
    private int framesTo;
    /**
     * References to {@link #frames} taken from the frames that joined the run after its first:
     * given back in one release when the run goes on (each release is an atomic instruction, and
     * a pipeline's answer is a run of dozens of messages).
     */
    private int framesJoined;
    /** A pending run of slices: the first slice written (owning one reference to its buffer), or null. */
    private ByteBuf first;
    private ByteBuf root;
    /** Address just past the run's last byte, and the run's length. */
    private long end;
    private int length;
    private ChannelPromise voidPromise;
    private ChannelHandlerContext ctx;

    /**
     * The promise for relayed writes on {@code ch}, one per channel: a failed write closes the
     * channel anyway, so no promise is made per message, and failures are not fired down the
     * pipeline (as with the promises nobody listened to). Only writes with it are joined.
     */
    public static ChannelPromise relayedWrites(Channel ch) {
        return new VoidChannelPromise(ch, false);
    }

    /**
     * Drops the run not yet written on {@code ch}: the replies of the read that a client is being
     * thrown out for, which PgBouncer drops with the connection. Written runs are not taken back.
     */
    public static void discardPending(Channel ch) {
        RunJoiner joiner = ch.pipeline().get(RunJoiner.class);
        if (joiner != null) {
            joiner.drop();
        }
    }

    /**
     * Where the handler at {@code writer} relays frames: the joiner right before it, called
     * directly; in a pipeline without one (tests), writes from {@code writer}.
     */
    public static FrameSink sinkFor(ChannelHandlerContext writer) {
        RunJoiner joiner = writer.pipeline().get(RunJoiner.class);
        if (joiner != null) {
            return joiner;
        }
        ChannelPromise relayed = relayedWrites(writer.channel());
        return f -> writer.write(f, relayed);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        voidPromise = relayedWrites(ctx.channel());
    }

    /**
     * {@code f} into the run, as a relayed write from the handler right after this one, without
     * the pipeline's walk from that handler to this one: the relay writes every message it passes
     * on, and with many small messages (a pipeline of statements) the walk was several per cent
     * of the event loop. On the channel's event loop only.
     */
    @Override
    public void relay(Frame f) {
        assert ctx.executor().inEventLoop();
        if (ctx.isRemoved()) {
            f.release(); // the channel is gone, as a write through the pipeline would find
            return;
        }
        writeFrame(ctx, f);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof Frame f) {
            if (promise.isVoid()) {
                writeFrame(ctx, f);
            } else {
                passRun(ctx);
                ctx.write(f.takeBytes(), promise);
            }
            return;
        }
        if (promise.isVoid() && msg instanceof ByteBuf b && b.hasMemoryAddress()) {
            ByteBuf r = rootOf(b);
            long start = b.memoryAddress() + b.readerIndex();
            if (first != null && r == root && start == end) {
                int n = b.readableBytes();
                end += n;
                length += n;
                b.release(); // the run's first slice keeps the buffer, and so these bytes, alive
                return;
            }
            passRun(ctx);
            if (r != null && r.hasMemoryAddress()) {
                first = b;
                root = r;
                length = b.readableBytes();
                end = start + length;
                return;
            }
        } else {
            passRun(ctx);
        }
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        passRun(ctx);
        ctx.flush();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        drop();
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        drop();
    }

    /**
     * The buffer that owns a slice's memory, or null when {@code b} is no slice. Unwrapped to the
     * bottom: a buffer Netty's leak detector samples (about one in 128 by default) comes wrapped,
     * and so do its slices, one wrapper each.
     */
    private static ByteBuf rootOf(ByteBuf b) {
        ByteBuf r = b.unwrap();
        if (r == null) {
            return null;
        }
        for (ByteBuf u = r.unwrap(); u != null; u = u.unwrap()) {
            r = u;
        }
        return r;
    }

    private void writeFrame(ChannelHandlerContext ctx, Frame f) {
        if (frames != null && f.buffer() == frames && f.start() == framesTo) {
            framesTo = f.end();
            f.takeBuffer(); // its reference is the run's now
            framesJoined++;
            return;
        }
        passRun(ctx);
        framesFrom = f.start();
        framesTo = f.end();
        frames = f.takeBuffer();
    }

    private void passRun(ChannelHandlerContext ctx) {
        if (frames != null) {
            ByteBuf b = frames;
            frames = null;
            releaseJoined(b);
            ctx.write(Frame.handOver(b, framesFrom, framesTo), voidPromise);
            return;
        }
        ByteBuf b = first;
        if (b == null) {
            return;
        }
        first = null;
        if (length != b.readableBytes()) {
            int index = (int) (end - length - root.memoryAddress());
            ByteBuf joined = root.retainedSlice(index, length);
            b.release();
            b = joined;
        }
        root = null;
        ctx.write(b, voidPromise);
    }

    /** Gives back the references of the frames that joined the run; the run's first one stays. */
    private void releaseJoined(ByteBuf b) {
        if (framesJoined > 0) {
            b.release(framesJoined);
            framesJoined = 0;
        }
    }

    private void drop() {
        if (frames != null) {
            releaseJoined(frames);
            frames.release();
            frames = null;
        }
        if (first != null) {
            first.release();
            first = null;
            root = null;
        }
    }
}
