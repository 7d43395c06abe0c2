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

/** The texts a client's Parses repeat are classified once: found again by their bytes, within bounds. */
class ParseTextsTest {
    private final ParseTexts texts = new ParseTexts();

    /** {@code sql} NUL-terminated in the middle of a buffer, as a Parse's body holds it. */
    private SqlCommand classify(String sql) {
        byte[] b = sql.getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = Unpooled.buffer().writeBytes(new byte[] {'P', 0, 0, 0, 0, 0}).writeBytes(b).writeByte(0)
                .writeBytes(new byte[] {0, 0});
        return texts.classify(buf, 6, buf.writerIndex());
    }

    private static String set(int i) {
        return "SET application_name = 'statement " + i + "'";
    }

    @Test
    void aTransactionsStatementsInTurnAreEachClassifiedOnce() {
        // a SET classifies to a new command each time, so the same instance back means it was kept
        List<SqlCommand> first = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            first.add(classify(set(i)));
            assertThat(first.get(i)).isEqualTo(ParseTexts.classify(set(i))).isNotSameAs(ParseTexts.classify(set(i)));
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 7; i++) {
                assertThat(classify(set(i))).as("round %d, statement %d", round, i).isSameAs(first.get(i));
            }
        }
        assertThat(classify(set(4))).as("out of turn too").isSameAs(first.get(4));
        assertThat(texts.kept()).isEqualTo(7);
    }

    @Test
    void theOldestTextGoesFirstPastSixteenTexts() {
        SqlCommand oldest = classify(set(0));
        SqlCommand second = classify(set(1));
        for (int i = 2; i <= ParseTexts.ENTRIES; i++) {
            classify(set(i));
        }
        assertThat(texts.kept()).isEqualTo(ParseTexts.ENTRIES);
        assertThat(classify(set(1))).isSameAs(second);
        assertThat(classify(set(0))).as("dropped for the seventeenth").isNotSameAs(oldest).isEqualTo(oldest);
        assertThat(texts.kept()).isEqualTo(ParseTexts.ENTRIES);
    }

    @Test
    void keptBytesStayBoundedAndLongTextsAreNotKept() {
        String pad = "x".repeat(3000);
        SqlCommand a = classify("SET application_name = 'a" + pad + "'");
        classify("SET application_name = 'b" + pad + "'");
        classify("SET application_name = 'c" + pad + "'");
        assertThat(texts.kept()).isEqualTo(2);
        assertThat(texts.keptBytes()).isLessThanOrEqualTo(ParseTexts.BYTES_MAX);
        assertThat(classify("SET application_name = 'a" + pad + "'")).isNotSameAs(a).isEqualTo(a);

        String longText = "SET application_name = '" + "y".repeat(ParseTexts.TEXT_MAX) + "'";
        SqlCommand once = classify(longText);
        assertThat(classify(longText)).isNotSameAs(once).isEqualTo(once);
    }

    @Test
    void aTextWithoutItsNulIsRefused() {
        ByteBuf buf = Unpooled.copiedBuffer("SELECT 1", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> texts.classify(buf, 0, buf.writerIndex())).isInstanceOf(ProtocolException.class)
                .hasMessage("invalid message format in 'P' message");
    }
}
