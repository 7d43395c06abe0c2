package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.proto.StartupPacket;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The first bytes a client sends, judged as PgBouncer's get_header judges them (checked
 * side by side with 1.18): a zero first byte is a startup header, judged once its 8 bytes are
 * in; any other first byte is a typed message's, judged once its 5 bytes are in.
 */
class StartupHeaderTest {
    private static final int PKT_BUF = 4096;

    private static EmbeddedChannel channel(long maxPacketSize) {
        return new EmbeddedChannel(new StartupDecoder(PKT_BUF, maxPacketSize));
    }

    private static ByteBuf typed(char type, int length, String body) {
        return Unpooled.buffer().writeByte(type).writeInt(length).writeBytes(body.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void halfAStartupHeaderWaitsForTheOtherHalfThenNamesAllEightBytes() {
        EmbeddedChannel ch = channel(Integer.MAX_VALUE);
        assertThat(ch.writeInbound(Unpooled.buffer(4).writeInt(4))).isFalse();
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer(4).writeInt(196608)))
                .rootCause().hasMessage("bad packet header: '0000000400030000'");
        ch.finishAndReleaseAll();
    }

    @Test
    void aQueryBeforeTheStartupPacketIsPassedOnAsTypedAndWhatFollowsIsDropped() {
        EmbeddedChannel ch = channel(Integer.MAX_VALUE);
        ByteBuf more = Unpooled.buffer(8).writeInt(8).writeInt(196608);
        assertThat(ch.writeInbound(typed('Q', 13, "select 1\0"))).isTrue();
        StartupPacket.Typed t = ch.readInbound();
        assertThat(t.type()).isEqualTo((byte) 'Q');
        assertThat(ch.writeInbound(more)).as("nothing is read after it").isFalse();
        assertThat(more.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void aTypedMessageIsPassedOnOnlyOnceWhole() {
        EmbeddedChannel ch = channel(Integer.MAX_VALUE);
        assertThat(ch.writeInbound(Unpooled.buffer(3).writeByte('p').writeShort(0))).isFalse();
        assertThat(ch.writeInbound(Unpooled.buffer(6).writeShort(11).writeBytes("sec".getBytes(StandardCharsets.US_ASCII))))
                .as("header in, body not yet").isFalse();
        assertThat(ch.writeInbound(Unpooled.wrappedBuffer("ret\0".getBytes(StandardCharsets.US_ASCII)))).isTrue();
        StartupPacket.Typed t = ch.readInbound();
        assertThat(t.type()).isEqualTo((byte) 'p');
        ch.finishAndReleaseAll();
    }

    @Test
    void typedLengthBelowFourIsABadHeaderNamingItsFirstEightBytes() {
        EmbeddedChannel ch = channel(Integer.MAX_VALUE);
        assertThatThrownBy(() -> ch.writeInbound(typed('Q', 2, "abc")))
                .rootCause().hasMessage("bad packet header: '5100000002616263'");
        ch.finishAndReleaseAll();
    }

    @Test
    void typedMessageLargerThanPktBufIsAPartialPacketAsAnHttpRequestIs() {
        EmbeddedChannel ch = channel(Integer.MAX_VALUE);
        ByteBuf http = Unpooled.wrappedBuffer("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> ch.writeInbound(http))
                .rootCause().hasMessage(StartupDecoder.PARTIAL_PACKET);
        ch.finishAndReleaseAll();
    }

    @Test
    void typedLengthAboveMaxPacketSizeIsABadHeader() {
        EmbeddedChannel small = channel(1024);
        assertThatThrownBy(() -> small.writeInbound(typed('Q', 2000, "")))
                .rootCause().hasMessage("bad packet header: '51000007d0'");
        small.finishAndReleaseAll();
        EmbeddedChannel wrapped = channel(Integer.MAX_VALUE);
        assertThatThrownBy(() -> wrapped.writeInbound(typed('Q', -1, "abc")))
                .as("a length of 2^32 - 1 wraps, as in PgBouncer")
                .rootCause().hasMessage("bad packet header: '51ffffffff616263'");
        wrapped.finishAndReleaseAll();
    }

    @Test
    void startupParametersStopAtTheFirstStringWithoutItsTerminatorAsInPgBouncer() {
        EmbeddedChannel ch = channel(Integer.MAX_VALUE);
        byte[] body = "user\0alice\0database\0app\0applicat".getBytes(StandardCharsets.US_ASCII);
        ByteBuf p = Unpooled.buffer().writeInt(8 + body.length).writeInt(196608).writeBytes(body);
        assertThat(ch.writeInbound(p)).isTrue();
        StartupPacket.Startup s = ch.readInbound();
        assertThat(s.parameters()).containsExactly(java.util.Map.entry("user", "alice"), java.util.Map.entry("database", "app"));
        EmbeddedChannel noValue = channel(Integer.MAX_VALUE);
        byte[] half = "user\0ali".getBytes(StandardCharsets.US_ASCII);
        assertThat(noValue.writeInbound(Unpooled.buffer().writeInt(8 + half.length).writeInt(196608).writeBytes(half))).isTrue();
        StartupPacket.Startup none = noValue.readInbound();
        assertThat(none.parameters()).as("a value cut short drops its name too").isEmpty();
    }
}
