package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.proto.Frame;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A Bind rewritten to name the server's statement: same parameters, new names, right length. */
class BindRewriteTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    /** The parameter part of a Bind: no format codes, one text value, no result formats. */
    private static ByteBuf parameters(int valueLength) {
        ByteBuf p = Unpooled.buffer();
        p.writeShort(0).writeShort(1).writeInt(valueLength).writeZero(valueLength).writeShort(0);
        return p;
    }

    /** Reads the rewritten Bind back as the statement router reads a client's: names in place. */
    private static void assertBind(ByteBuf out, String portal, String statement, ByteBuf parameters) {
        assertThat(out.getByte(out.readerIndex())).isEqualTo((byte) 'B');
        assertThat(out.getInt(out.readerIndex() + 1)).as("length").isEqualTo(out.readableBytes() - 1);
        Frame bind = new Frame((byte) 'B', out.retain());
        assertThat(ExtendedCodec.firstString(bind, 'B', null)).isEqualTo(portal);
        int at = bind.bodyStart() + portal.length() + 1;
        assertThat(ExtendedCodec.stringAt(bind, at, 'B', null)).isEqualTo(statement);
        at += statement.length() + 1;
        assertThat(out.slice(at, bind.end() - at).equals(parameters)).as("the parameters as they came").isTrue();
        bind.release();
    }

    @Test
    void smallParametersAreCopiedIntoOneBuffer() {
        ByteBuf params = parameters(5);
        ByteBuf out = ExtendedCodec.bind(ALLOC, "p", "S_12", params);
        assertThat(out).isNotInstanceOf(CompositeByteBuf.class);
        assertThat(params.refCnt()).as("nothing of the client's buffer kept").isEqualTo(1);
        assertBind(out, "p", "S_12", params);
        out.release();
        params.release();
    }

    @Test
    void largeParametersFollowUncopied() {
        ByteBuf params = parameters(ExtendedCodec.BIND_COPY_MAX);
        ByteBuf out = ExtendedCodec.bind(ALLOC, "", "S_1", params);
        assertThat(out).isInstanceOf(CompositeByteBuf.class);
        assertThat(params.refCnt()).as("the rewritten Bind holds the client's bytes").isEqualTo(2);
        assertBind(out, "", "S_1", params);
        out.release();
        assertThat(params.refCnt()).isEqualTo(1);
        params.release();
    }

    @Test
    void namesAreWrittenByteForByte() {
        String portal = new String("\u00e9".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        ByteBuf params = parameters(0);
        ByteBuf out = ExtendedCodec.bind(ALLOC, portal, "s", params);
        assertThat(out.getByte(5)).isEqualTo((byte) 0xc3);
        assertThat(out.getByte(6)).isEqualTo((byte) 0xa9);
        assertBind(out, portal, "s", params);
        out.release();
        params.release();
    }
}
