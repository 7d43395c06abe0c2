package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A message's strings, read in place; the last one is handed back when the bytes repeat it, and
 * each string's length in chars is its length in bytes, so the next field starts right after it.
 */
class FirstStringTest {
    private static Frame message(char type, byte[] body) {
        ByteBuf b = Unpooled.buffer().writeByte(type).writeInt(4 + body.length).writeBytes(body);
        return new Frame((byte) type, b);
    }

    private static Frame complete(String tag) {
        return message('C', (tag + "\0").getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void aRepeatedTagIsTheSameStringAndAnotherIsNew() {
        Frame first = complete("SELECT 1");
        String tag = ExtendedCodec.firstString(first, 'C', null);
        assertThat(tag).isEqualTo("SELECT 1");
        Frame again = complete("SELECT 1");
        assertThat(ExtendedCodec.firstString(again, 'C', tag)).isSameAs(tag);
        Frame other = complete("SELECT 2");
        assertThat(ExtendedCodec.firstString(other, 'C', tag)).isEqualTo("SELECT 2");
        Frame longer = complete("SELECT 10");
        assertThat(ExtendedCodec.firstString(longer, 'C', tag)).isEqualTo("SELECT 10");
        // read in place: the frame is relayed afterwards with every byte still there
        assertThat(again.bytes().readableBytes()).isEqualTo(5 + "SELECT 1".length() + 1);
        for (Frame f : new Frame[] {first, again, other, longer}) {
            f.release();
        }
    }

    @Test
    void everyByteOfALongerTagIsCompared() {
        // eight bytes are compared at a time, then one by one: a difference anywhere makes a new string
        String tag = "INSERT 0 1\u00e9"; // 11 bytes, one of them above 0x7f
        Frame first = complete(tag);
        String read = ExtendedCodec.firstString(first, 'C', null);
        assertThat(read).isEqualTo(tag);
        for (int i = 0; i < tag.length(); i++) {
            char[] changed = tag.toCharArray();
            changed[i] = (char) (changed[i] ^ 1);
            Frame other = complete(new String(changed));
            assertThat(ExtendedCodec.firstString(other, 'C', read)).as("byte %d changed", i).isNotSameAs(read)
                    .isEqualTo(new String(changed));
            other.release();
        }
        Frame again = complete(tag);
        assertThat(ExtendedCodec.firstString(again, 'C', read)).isSameAs(read);
        first.release();
        again.release();
    }

    @Test
    void aBindsPortalAndStatementInTheMiddleOfAReadBuffer() {
        // a frame from the decoder lies among others in one buffer: read from its own start
        byte[] portal = "p\u00e9".getBytes(StandardCharsets.UTF_8); // 3 bytes, not 2 chars
        byte[] body = concat(portal, new byte[] {0}, "s1".getBytes(StandardCharsets.ISO_8859_1), new byte[] {0, 0, 0});
        ByteBuf b = Unpooled.buffer().writeBytes(new byte[] {'S', 0, 0, 0, 4});
        int start = b.writerIndex();
        b.writeByte('B').writeInt(4 + body.length).writeBytes(body);
        int cut = b.writerIndex();
        b.writeByte('E').writeInt(4 + 2).writeBytes(new byte[] {'p', '1'}).writeBytes(new byte[] {'S', 0, 0, 0, 4});
        Frame bind = new Frame((byte) 'B', b.retain(), start, 5 + body.length);
        String first = ExtendedCodec.firstString(bind, 'B', null);
        assertThat(first.getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(portal);
        String second = ExtendedCodec.stringAt(bind, bind.bodyStart() + first.length() + 1, 'B', null);
        assertThat(second).isEqualTo("s1");
        Frame execute = new Frame((byte) 'E', b, cut, 5 + 2);
        assertThatThrownBy(() -> ExtendedCodec.firstString(execute, 'E', null))
                .as("the NUL in the Sync after it does not end the Execute's portal name")
                .isInstanceOf(ProtocolException.class);
        bind.release();
        execute.release();
        assertThat(b.refCnt()).isZero();
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuf out = Unpooled.buffer();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        byte[] all = new byte[out.readableBytes()];
        out.readBytes(all);
        return all;
    }

    @Test
    void anExecuteOfTheUnnamedPortalAndOneWithoutItsTerminator() {
        Frame unnamed = message('E', new byte[] {0, 0, 0, 0, 0});
        assertThat(ExtendedCodec.firstString(unnamed, 'E', "p1")).isEmpty();
        Frame cut = message('E', "p1".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> ExtendedCodec.firstString(cut, 'E', null))
                .isInstanceOf(ProtocolException.class).hasMessage("invalid message format in 'E' message");
        unnamed.release();
        cut.release();
    }

    @Test
    void aParseCutShortIsBrokenOnlyWhenItNamesItsStatement() {
        // PgBouncer 1.25 closes with "broken Parse packet" for a named one only; an unnamed one goes on
        byte[] unnamedCut = "\0select 1".getBytes(StandardCharsets.ISO_8859_1); // no NUL after the text
        byte[] namedCut = "s1\0select 1".getBytes(StandardCharsets.ISO_8859_1);
        byte[] namedWhole = "s1\0select 1\0\0\0".getBytes(StandardCharsets.ISO_8859_1);
        byte[] unnamedWhole = "\0select 1\0\0\0".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(brokenNamedParse(unnamedCut)).isFalse();
        assertThat(brokenNamedParse(unnamedWhole)).isFalse();
        assertThat(brokenNamedParse(namedCut)).isTrue();
        assertThat(brokenNamedParse(namedWhole)).isFalse();
        assertThat(brokenNamedParse(new byte[0])).isFalse();
    }

    private static boolean brokenNamedParse(byte[] body) {
        Frame parse = message('P', body);
        try {
            return ExtendedCodec.brokenNamedParse(parse);
        } finally {
            parse.release();
        }
    }
}
