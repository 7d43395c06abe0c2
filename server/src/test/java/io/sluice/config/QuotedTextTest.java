package io.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuotedTextTest {
    @Test
    void doubledQuotesStandForOneAndTheClosingQuoteIsFound() {
        StringBuilder out = new StringBuilder();
        String s = "'it''s' rest";
        int close = QuotedText.read(s, 1, '\'', out);
        assertThat(out).hasToString("it's");
        assertThat(close).isEqualTo(6);
        assertThat(s.charAt(close)).isEqualTo('\'');
    }

    @Test
    void anUnterminatedValueIsMinusOne() {
        assertThat(QuotedText.read("\"abc\"\"", 1, '"', new StringBuilder())).isEqualTo(-1);
        assertThat(QuotedText.read("\"", 1, '"', new StringBuilder())).isEqualTo(-1);
    }

    @Test
    void anEmptyValueEndsAtTheNextQuote() {
        StringBuilder out = new StringBuilder();
        assertThat(QuotedText.read("\"\" x", 1, '"', out)).isEqualTo(1);
        assertThat(out).isEmpty();
    }
}
