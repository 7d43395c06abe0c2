package io.sluice.config.ini;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnStringParserTest {

    @Test
    void bareAndQuotedValues() {
        assertThat(ConnStringParser.parse("host=a  port = 5433 connect_query='SELECT ''x'', 1'"))
                .contains(List.of(Map.entry("host", "a"), Map.entry("port", "5433"),
                        Map.entry("connect_query", "SELECT 'x', 1")));
        assertThat(ConnStringParser.parse("")).contains(List.of());
        assertThat(ConnStringParser.parse("   ")).contains(List.of());
        // no backslash escapes, as in PgBouncer's loader
        assertThat(ConnStringParser.parse("password='a\\b'")).contains(List.of(Map.entry("password", "a\\b")));
    }

    @Test
    void syntaxErrors() {
        assertThat(ConnStringParser.parse("host")).isEmpty();
        assertThat(ConnStringParser.parse("=x")).isEmpty();
        assertThat(ConnStringParser.parse("host=")).isEmpty();
        assertThat(ConnStringParser.parse("host=''")).isEmpty();
        assertThat(ConnStringParser.parse("host='open")).isEmpty();
    }
}
