package io.sluice.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.proto.ProtocolException;
import io.sluice.session.state.SqlCommand;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The texts Parses repeat are classified once: found again by their bytes, within bounds. */
class ParseTextsTest {
    private final ParseTexts texts = new ParseTexts(ParseTexts.ENTRIES_MAX, ParseTexts.BYTES_MAX);

    /** {@code sql} NUL-terminated in the middle of a buffer, as a Parse's body holds it. */
    private static SqlCommand classify(ParseTexts in, String sql) {
        byte[] b = sql.getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = Unpooled.buffer().writeBytes(new byte[] {'P', 0, 0, 0, 0, 0}).writeBytes(b).writeByte(0)
                .writeBytes(new byte[] {0, 0});
        return in.classify(buf, 6, buf.writerIndex());
    }

    private SqlCommand classify(String sql) {
        return classify(texts, sql);
    }

    private static String set(int i) {
        return "SET application_name = 'statement " + i + "'";
    }

    @Test
    void aPipelineOfTwentyStatementsIsClassifiedOnce() {
        // a SET classifies to a new command each time, so the same instance back means it was kept
        List<SqlCommand> first = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            first.add(classify(set(i)));
            assertThat(first.get(i)).isEqualTo(ParseTexts.classify(set(i))).isNotSameAs(ParseTexts.classify(set(i)));
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 20; i++) {
                assertThat(classify(set(i))).as("round %d, statement %d", round, i).isSameAs(first.get(i));
            }
        }
        assertThat(classify(set(4))).as("out of turn too").isSameAs(first.get(4));
        assertThat(texts.kept()).isEqualTo(20);
    }

    @Test
    void textsOfEqualLengthThatDifferInOneByteAreTold() {
        SqlCommand a = classify("SET search_path = a");
        SqlCommand b = classify("SET search_path = b");
        assertThat(a.value()).isEqualTo("a");
        assertThat(b.value()).isEqualTo("b");
        assertThat(classify("SET search_path = a")).isSameAs(a);
    }

    @Test
    void aTablePastItsBoundStartsOverAndLongTextsAreNotKept() {
        ParseTexts small = new ParseTexts(16, 8192);
        SqlCommand oldest = classify(small, set(0));
        for (int i = 1; i < 16; i++) {
            classify(small, set(i));
        }
        assertThat(small.kept()).isEqualTo(16);
        assertThat(classify(small, set(0))).isSameAs(oldest);
        classify(small, set(16));
        assertThat(small.kept()).as("the seventeenth text emptied it").isEqualTo(1);
        assertThat(classify(small, set(0))).isNotSameAs(oldest).isEqualTo(oldest);

        String pad = "x".repeat(3000);
        for (char c : "abc".toCharArray()) {
            classify(small, "SET application_name = '" + c + pad + "'");
            assertThat(small.keptBytes()).isLessThanOrEqualTo(8192);
        }
        assertThat(small.kept()).as("the third long text emptied it").isEqualTo(1);

        String longText = "SET application_name = '" + "y".repeat(ParseTexts.TEXT_MAX) + "'";
        SqlCommand once = classify(longText);
        assertThat(classify(longText)).isNotSameAs(once).isEqualTo(once);
    }

    @Test
    void theHashReadsEveryByte() {
        String text = "SELECT abalance FROM pgbench_accounts WHERE aid = $1";
        ByteBuf buf = Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
        long h = ParseTexts.hash(buf, 0, buf.readableBytes());
        for (int i = 0; i < buf.readableBytes(); i++) {
            ByteBuf other = buf.copy();
            other.setByte(i, other.getByte(i) ^ 1);
            assertThat(ParseTexts.hash(other, 0, other.readableBytes())).as("byte %d changed", i).isNotEqualTo(h);
        }
        assertThat(ParseTexts.hash(buf, 0, buf.readableBytes() - 1)).as("one byte shorter").isNotEqualTo(h);
    }

    @Test
    void aTextWithoutItsNulIsRefused() {
        ByteBuf buf = Unpooled.copiedBuffer("SELECT 1", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> texts.classify(buf, 0, buf.writerIndex())).isInstanceOf(ProtocolException.class)
                .hasMessage("invalid message format in 'P' message");
    }
}
