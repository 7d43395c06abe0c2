package io.sluice.proto.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.proto.Frame;
import io.sluice.proto.ProtocolException;
import io.sluice.proto.StartupPacket;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 15 (memory exhaustion before login): until a client is authenticated, a packet must
 * fit PgBouncer's pkt_buf; a larger one is refused on its header alone, in PgBouncer's words,
 * and nothing that follows is held.
 */
class LoginPacketLimitTest {
    private static final int PKT_BUF = 4096;
    private static final long MAX_PACKET_SIZE = Integer.MAX_VALUE;

    private static ByteBuf header(char type, int length) {
        return Unpooled.buffer(5).writeByte(type).writeInt(length);
    }

    private static ByteBuf message(char type, int wholeSize) {
        ByteBuf b = header(type, wholeSize - 1);
        return b.writeZero(wholeSize - 5);
    }

    @Test
    void passwordMessageClaiming200MiBIsRefusedOnItsHeaderAndNothingAfterIsHeld() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX_PACKET_SIZE, PKT_BUF, "d", null));
        ByteBuf head = header('p', 200 << 20);
        assertThatThrownBy(() -> ch.writeInbound(head))
                .hasRootCauseInstanceOf(ProtocolException.class)
                .rootCause().hasMessage("client sent partial pkt in startup phase");
        assertThat(head.refCnt()).as("header consumed, not kept").isZero();
        for (int i = 0; i < 8; i++) {
            ByteBuf more = Unpooled.buffer(1 << 20).writeZero(1 << 20);
            assertThat(ch.writeInbound(more)).as("no frame out of the rest").isFalse();
            assertThat(more.refCnt()).as("streamed body dropped, not accumulated").isZero();
        }
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void loginPhaseTakesExactlyPktBufBytesPerMessage() {
        EmbeddedChannel ok = new EmbeddedChannel(new FrameDecoder(MAX_PACKET_SIZE, PKT_BUF, "d", null));
        assertThat(ok.writeInbound(message('p', PKT_BUF))).isTrue();
        Frame f = ok.readInbound();
        assertThat(f.length()).isEqualTo(PKT_BUF);
        f.release();

        EmbeddedChannel over = new EmbeddedChannel(new FrameDecoder(MAX_PACKET_SIZE, PKT_BUF, "d", null));
        assertThatThrownBy(() -> over.writeInbound(header('p', PKT_BUF)))
                .rootCause().hasMessage("client sent partial pkt in startup phase");
        over.finishAndReleaseAll();
    }

    @Test
    void afterLoginMaxPacketSizeApplies() {
        FrameDecoder decoder = new FrameDecoder(MAX_PACKET_SIZE, PKT_BUF, "d", null);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        decoder.loginDone();
        assertThat(ch.writeInbound(message('Q', 100_000))).isTrue();
        Frame f = ch.readInbound();
        assertThat(f.length()).isEqualTo(100_000);
        f.release();
        assertThatThrownBy(() -> ch.writeInbound(header('Q', Integer.MAX_VALUE)))
                .as("max_packet_size still bounds an authenticated client")
                .rootCause().hasMessageStartingWith("bad packet header");
        ch.finishAndReleaseAll();
    }

    @Test
    void theMessageThatEndsTheLoginIsHandledBeforeTheNextHeaderIsJudged() {
        FrameDecoder decoder = new FrameDecoder(MAX_PACKET_SIZE, PKT_BUF, "d", null);
        // stands in for the session: the password message completes the login
        EmbeddedChannel ch = new EmbeddedChannel(decoder, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (((Frame) msg).type() == 'p') {
                    decoder.loginDone();
                }
                ctx.fireChannelRead(msg);
            }
        });
        ByteBuf both = Unpooled.wrappedBuffer(message('p', 40), message('Q', 10_000));
        assertThat(ch.writeInbound(both)).isTrue();
        Frame p = ch.readInbound();
        Frame q = ch.readInbound();
        assertThat(p.type()).isEqualTo((byte) 'p');
        assertThat(q.length()).as("the query after the login is under max_packet_size only").isEqualTo(10_000);
        p.release();
        q.release();
    }

    @Test
    void serverConnectionsHaveNoLoginLimit() {
        EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX_PACKET_SIZE, "d"));
        assertThat(ch.writeInbound(message('D', 50_000))).isTrue();
        Frame f = ch.readInbound();
        assertThat(f.length()).isEqualTo(50_000);
        f.release();
    }

    @Test
    void startupPacketBeyondPktBufIsRefusedOnItsLengthAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new StartupDecoder(PKT_BUF, MAX_PACKET_SIZE));
        ByteBuf head = Unpooled.buffer(8).writeInt(5000).writeInt(196608);
        assertThatThrownBy(() -> ch.writeInbound(head))
                .rootCause().hasMessage("client sent partial pkt in startup phase");
        ByteBuf rest = Unpooled.buffer(4992).writeZero(4992);
        assertThat(ch.writeInbound(rest)).isFalse();
        assertThat(rest.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void startupLengthWiderThanSixteenBitsIsABadHeaderAsInPgBouncer() {
        EmbeddedChannel ch = new EmbeddedChannel(new StartupDecoder(PKT_BUF, MAX_PACKET_SIZE));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer(8).writeInt(0x10010).writeInt(196608)))
                .rootCause().hasMessage("bad packet header: '0001001000030000'");
        ch.finishAndReleaseAll();
    }

    @Test
    void startupPacketOfExactlyPktBufIsDecoded() {
        EmbeddedChannel ch = new EmbeddedChannel(new StartupDecoder(PKT_BUF, MAX_PACKET_SIZE));
        ByteBuf p = Unpooled.buffer(PKT_BUF).writeInt(PKT_BUF).writeInt(196608);
        byte[] user = "user\0postgres\0application_name\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        p.writeBytes(user);
        p.writeZero(PKT_BUF - p.writerIndex() - 2).writeByte(0).writeByte(0);
        assertThat(ch.writeInbound(p)).isTrue();
        StartupPacket.Startup s = ch.readInbound();
        assertThat(s.user()).isEqualTo("postgres");
    }
}
