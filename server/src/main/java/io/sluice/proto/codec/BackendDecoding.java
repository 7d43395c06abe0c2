package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.TransactionStatus;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Decodes the server messages the pooler reads from their frames; other types give null. */
public final class BackendDecoding {
    private BackendDecoding() {
    }

    public static BackendMessage decode(Frame frame) {
        ByteBuf body = frame.body();
        try {
            return switch (frame.type()) {
                case 'Z' -> new BackendMessage.ReadyForQuery(TransactionStatus.of(body.readByte()));
                case 'S' -> new BackendMessage.ParameterStatus(
                        StartupDecoder.readCString(body), StartupDecoder.readCString(body));
                case 'K' -> new BackendMessage.BackendKeyData(body.readInt(), body.readInt());
                case 'E', 'N' -> new BackendMessage.ErrorOrNotice(frame.type() == 'E', fields(body));
                case 'R' -> {
                    int code = body.readInt();
                    byte[] data = new byte[body.readableBytes()];
                    body.readBytes(data);
                    yield new BackendMessage.Authentication(code, data);
                }
                default -> null;
            };
        } catch (IndexOutOfBoundsException e) {
            throw new ProtocolException("malformed server message " + (char) frame.type());
        }
    }

    /** Status byte of a ReadyForQuery frame without building a record (hot path). */
    public static TransactionStatus readyStatus(Frame frame) {
        if (frame.length() < 6) {
            throw new ProtocolException("malformed server message Z"); // found by FrameDecoderFuzzTest
        }
        return TransactionStatus.of(frame.buffer().getByte(frame.bodyStart()));
    }

    /** The column count of a RowDescription frame. */
    public static int columnCount(Frame frame) {
        try {
            return frame.body().readUnsignedShort();
        } catch (IndexOutOfBoundsException e) {
            throw new ProtocolException("malformed server message T");
        }
    }

    /**
     * The values of each DataRow in a frame as UTF-8 text, SQL NULL as null: one row, or the run
     * of rows the frame decoder joins into one frame.
     */
    public static List<List<String>> dataRows(Frame frame) {
        ByteBuf buf = frame.buffer();
        List<List<String>> rows = new ArrayList<>(1);
        int at = frame.start();
        while (at < frame.end()) {
            if (frame.end() - at < 5) {
                throw new ProtocolException("malformed server message D");
            }
            int len = buf.getInt(at + 1);
            if (len < 4 || len > frame.end() - at - 1) {
                throw new ProtocolException("malformed server message D");
            }
            rows.add(rowValues(buf.slice(at + 5, len - 4)));
            at += len + 1;
        }
        return rows;
    }

    private static List<String> rowValues(ByteBuf body) {
        try {
            int n = body.readUnsignedShort();
            List<String> values = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int len = body.readInt();
                values.add(len < 0 ? null : body.readCharSequence(len, StandardCharsets.UTF_8).toString());
            }
            if (body.isReadable()) {
                throw new ProtocolException("malformed server message D");
            }
            return values;
        } catch (IndexOutOfBoundsException e) {
            throw new ProtocolException("malformed server message D");
        }
    }

    static Map<Character, String> fields(ByteBuf body) {
        Map<Character, String> fields = new LinkedHashMap<>();
        while (body.isReadable()) {
            byte code = body.readByte();
            if (code == 0) {
                break;
            }
            fields.put((char) code, StartupDecoder.readCString(body));
        }
        return fields;
    }
}
