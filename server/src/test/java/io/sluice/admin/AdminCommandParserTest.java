package io.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AdminCommandParserTest {

    private final AdminCommandParser parser = new AdminCommandParser();

    private ParsedCommand.Command command(String q) {
        ParsedCommand p = parser.parse(q);
        assertThat(p).as(q).isInstanceOf(ParsedCommand.Command.class);
        return (ParsedCommand.Command) p;
    }

    private ParsedCommand.SetCommand set(String q) {
        ParsedCommand p = parser.parse(q);
        assertThat(p).as(q).isInstanceOf(ParsedCommand.SetCommand.class);
        return (ParsedCommand.SetCommand) p;
    }

    private String error(String q) {
        ParsedCommand p = parser.parse(q);
        assertThat(p).as(q).isInstanceOf(ParsedCommand.Invalid.class);
        AdminResult.AdminError e = ((ParsedCommand.Invalid) p).error();
        assertThat(e.sqlState()).isEqualTo("08P01");
        return e.message();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "show pools|show|pools",
        "SHOW POOLS|SHOW|POOLS",
        "  show\tpools ;  |show|pools",
        "show pools;|show|pools",
        "reload|reload|''",
        "RELOAD;|RELOAD|''",
        "pause mydb|pause|mydb",
        "PAUSE MyDb|PAUSE|MyDb",
        "kill_client 42|kill_client|42",
        "select version|select|version",
        "\"show\" \"pools\"|show|pools",
        "pause \"my db\"|pause|my db",
        "pause \"we\"\"ird\"|pause|we\"ird",
        "pause \"\"|pause|''",
    })
    void acceptsWordForms(String query, String word, String arg) {
        ParsedCommand.Command c = command(query);
        assertThat(c.word()).isEqualTo(word);
        assertThat(c.arg()).isEqualTo(arg);
    }

    @Test
    void whiteSpaceIncludesNewlines() {
        ParsedCommand.Command c = command("show\r\npools\n");
        assertThat(c.word()).isEqualTo("show");
        assertThat(c.arg()).isEqualTo("pools");
    }

    @Test
    void setWithoutValueIsAnOrdinaryTwoWordCommand() {
        // PgBouncer then fails it as an unknown command word; see AdminConsoleTest
        assertThat(command("set x").word()).isEqualTo("set");
    }

    @Test
    void absentArgumentIsEmpty() {
        assertThat(command("reload").arg()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "set default_pool_size = 30|default_pool_size|30",
        "SET default_pool_size TO 30|default_pool_size|30",
        "set default_pool_size=30;|default_pool_size|30",
        "Set \"pool_mode\" to \"transaction\"|pool_mode|transaction",
        "set query_timeout = '1.5'|query_timeout|1.5",
        "set admin_users = 'a, b'|admin_users|a, b",
        "set x = 'it''s'|x|it's",
        "set x = ''|x|''",
        "set client_encoding to 'utf8'|client_encoding|utf8",
    })
    void acceptsSetForms(String query, String key, String value) {
        ParsedCommand.SetCommand s = set(query);
        assertThat(s.key()).isEqualTo(key);
        assertThat(s.value()).isEqualTo(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "   ", ";", "show pools now", "show-pools", "set x = 1.5", "set = 1", "show 'pools'",
        "pause \"unterminated", "show pools;;", "set x = 'a' extra", "SHOW POOLS\u00e9",
    })
    void rejectsEverythingElseWithPgBouncersText(String query) {
        assertThat(error(query)).isEqualTo("invalid command '" + query + "', use SHOW HELP;");
    }

    @Test
    void errorTextKeepsTheQueryVerbatim() {
        assertThat(error(" show  me  the  pools ")).isEqualTo("invalid command ' show  me  the  pools ', use SHOW HELP;");
    }

    @Test
    void overlongGroupsGiveBadArguments() {
        assertThat(command("abcdefghijklmno").word()).hasSize(15);
        assertThat(error("abcdefghijklmnop")).isEqualTo("bad arguments"); // 16 bytes
        assertThat(command("pause " + "d".repeat(63)).arg()).hasSize(63);
        assertThat(error("pause " + "d".repeat(64))).isEqualTo("bad arguments");
        // the limit counts the quotes too
        assertThat(error("pause \"" + "d".repeat(62) + "\"")).isEqualTo("bad arguments");
        assertThat(set("set k = '" + "v".repeat(253) + "'").value()).hasSize(253);
        assertThat(error("set k = '" + "v".repeat(254) + "'")).isEqualTo("bad arguments");
        assertThat(error("set " + "k".repeat(64) + " = 1")).isEqualTo("bad arguments");
    }

    @Test
    void emptyQuotedSetKeyIsBadArguments() {
        assertThat(error("set \"\" = 1")).isEqualTo("bad arguments");
    }

    @Test
    void veryLongErrorTextIsCutAt1023Bytes() {
        String q = "x y z " + "é".repeat(600);
        String msg = error(q);
        assertThat(msg.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1023);
        assertThat(msg).startsWith("invalid command 'x y z é");
        assertThat(msg).doesNotContain("\uFFFD");
    }

    @Test
    void unterminatedQuotesDoNotBacktrackForever() {
        String q = "pause \"" + "a".repeat(50_000);
        assertThat(error(q)).startsWith("invalid command '");
    }
}
