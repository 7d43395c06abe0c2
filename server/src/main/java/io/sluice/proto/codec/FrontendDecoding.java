package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;

import java.nio.charset.StandardCharsets;

/** Reads the client messages the pooler interprets: password/SASL responses and query text. */
public final class FrontendDecoding {
    private FrontendDecoding() {
    }

    /** 'p' as PasswordMessage: a C string. */
    public static String password(Frame frame) {
        expect(frame, 'p');
        return StartupDecoder.readCString(frame.body());
    }

    /**
     * 'p' as SASLInitialResponse. The data is null when the bytes after the mechanism are not a
     * well-formed response: the mechanism is judged first, as PgBouncer and PostgreSQL judge it.
     */
    public static SaslInitial saslInitial(Frame frame) {
        expect(frame, 'p');
        ByteBuf body = frame.body();
        String mechanism = StartupDecoder.readCString(body);
        if (body.readableBytes() < 4) {
            return new SaslInitial(mechanism, null);
        }
        int len = body.readInt();
        // -1 is "no initial response"; any other length must be what is left, as PostgreSQL checks
        if (len < -1 || (len >= 0 && len != body.readableBytes())) {
            return new SaslInitial(mechanism, null);
        }
        String data = len < 0 ? "" : body.readCharSequence(len, StandardCharsets.UTF_8).toString();
        return new SaslInitial(mechanism, data);
    }

    /** 'p' as SASLResponse: the rest of the body. */
    public static String saslResponse(Frame frame) {
        expect(frame, 'p');
        return frame.body().toString(StandardCharsets.UTF_8);
    }

    /** 'Q': the query string. */
    public static String query(Frame frame) {
        expect(frame, 'Q');
        return StartupDecoder.readCString(frame.body());
    }

    private static void expect(Frame frame, char type) {
        if (frame.type() != type) {
            throw new ProtocolException("expected message '" + type + "', got '" + (char) frame.type() + "'");
        }
    }

    public record SaslInitial(String mechanism, String data) {
    }
}
