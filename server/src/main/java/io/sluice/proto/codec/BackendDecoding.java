package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.proto.BackendMessage;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.TransactionStatus;

import java.util.LinkedHashMap;
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
        return TransactionStatus.of(frame.bytes().getByte(frame.bytes().readerIndex() + 5));
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
