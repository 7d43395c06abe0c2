package io.sluice.warmup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.codec.BackendDecoding;
import io.sluice.proto.codec.Encoders;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Map;

/**
 * One client of the warm-up, with blocking sockets (it runs before the pooler serves anyone,
 * on a thread of its own): each round logs in, runs one simple and one extended query, and
 * logs out, the path a connection-per-request application takes through the pooler.
 */
public final class ExerciseClient {
    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    private static final int TIMEOUT_MILLIS = 2000;

    private final int port;
    private final byte[] startup;
    private final byte[] simple;
    private final byte[] extended;
    private final byte[] terminate;

    public ExerciseClient(int port, String user, String database) {
        this.port = port;
        this.startup = bytes(Encoders.startup(ALLOC, Map.of("user", user, "database", database,
                "application_name", "sluice-warmup")));
        this.simple = bytes(Encoders.query(ALLOC, "select 1"));
        this.extended = bytes(Encoders.extendedQuery(ALLOC, "select $1::int4", List.of("1")));
        this.terminate = bytes(Encoders.terminate(ALLOC));
    }

    /** One round; an error from the pooler or a closed connection is an IOException. */
    public void round() throws IOException {
        try (Socket s = new Socket(StandInBackend.HOST, port)) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            out.write(startup);
            untilReady(in);
            out.write(simple);
            untilReady(in);
            out.write(extended);
            untilReady(in);
            out.write(terminate);
        }
    }

    /** Reads messages up to ReadyForQuery; an ErrorResponse ends the round. */
    private static void untilReady(DataInputStream in) throws IOException {
        while (true) {
            byte type = in.readByte();
            int length = in.readInt();
            if (length < 4) {
                throw new IOException("bad message length " + length);
            }
            byte[] body = in.readNBytes(length - 4);
            if (body.length != length - 4) {
                throw new IOException("connection closed in a message");
            }
            if (type == 'Z') {
                return;
            }
            if (type == 'E') {
                throw new IOException("pooler answered with an error: " + describe(type, length, body));
            }
        }
    }

    private static String describe(byte type, int length, byte[] body) {
        ByteBuf whole = Unpooled.buffer(length + 1).writeByte(type).writeInt(length).writeBytes(body);
        Frame frame = new Frame(type, whole);
        try {
            return BackendDecoding.decode(frame) instanceof BackendMessage.ErrorOrNotice e
                    ? e.fields().get('M') : "?";
        } finally {
            frame.release();
        }
    }

    private static byte[] bytes(ByteBuf buf) {
        try {
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }
}
