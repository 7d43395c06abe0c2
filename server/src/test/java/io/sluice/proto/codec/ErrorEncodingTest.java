package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.proto.PgError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Sluice's own errors and notices carry the fields PgBouncer's send_pooler_error and pktbuf_write_Notice write. */
class ErrorEncodingTest {
    private static String fields(ByteBuf buf) {
        try {
            char type = (char) buf.readByte();
            int length = buf.readInt();
            assertEquals(buf.readableBytes() + 4, length, "length field");
            byte[] body = new byte[buf.readableBytes()];
            buf.readBytes(body);
            return type + ":" + new String(body, StandardCharsets.UTF_8).replace('\0', '|');
        } finally {
            buf.release();
        }
    }

    @Test
    void errorIsSeverityCodeMessageAsPgBouncerSendsIt() {
        ByteBuf buf = Encoders.error(UnpooledByteBufAllocator.DEFAULT,
                PgError.fatal("08P01", "no more connections allowed (max_client_conn)"));
        assertEquals("E:SFATAL|C08P01|Mno more connections allowed (max_client_conn)||", fields(buf));
    }

    @Test
    void detailFollowsTheMessage() {
        ByteBuf buf = Encoders.error(UnpooledByteBufAllocator.DEFAULT,
                new PgError("ERROR", "42P05", "prepared statement \"a\" already exists", "d"));
        assertEquals("E:SERROR|C42P05|Mprepared statement \"a\" already exists|Dd||", fields(buf));
    }

    @Test
    void noticeIsAnNMessageWithTheSameFields() {
        ByteBuf buf = Encoders.error(UnpooledByteBufAllocator.DEFAULT, new PgError("NOTICE", "00000", "hello", null));
        assertEquals("N:SNOTICE|C00000|Mhello||", fields(buf));
    }
}
