package io.sluice.config.userlist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AuthFileParserTest {

    private static final String SCRAM = "SCRAM-SHA-256$4096:MDEyMzQ1Njc4OWFiY2RlZg=="
            + "$bpSY5Ze9NUH+I35LC3gVq+DpBfK46iXBxvhAKqVu9pE=:VpYlBuxyzeCI1KnctrefdljpB1mk3Gp7sBI/t11+NkQ=";

    @Test
    void parsesQuotingCommentsAndClassifiesSecrets() throws Exception {
        AuthFile f = AuthFileParser.parse("u.txt", """
                ; comment
                   ; indented comment

                "plain" "pa""ss" trailing junk is ignored
                "md5user" "md5b10c8cc2f3dc1fa9e7f5ba1ed4ee4a1e"
                "scram"   "%s"
                "odd""name" ""
                "plain" "second wins"
                """.formatted(SCRAM));
        assertThat(f.users().keySet()).containsExactly("plain", "md5user", "scram", "odd\"name");
        assertThat(f.secret("plain")).contains(Secret.of("second wins"));
        assertThat(f.secret("md5user").orElseThrow().kind()).isEqualTo(Secret.Kind.MD5);
        Secret scram = f.secret("scram").orElseThrow();
        assertThat(scram.kind()).isEqualTo(Secret.Kind.SCRAM);
        assertThat(scram.scram().orElseThrow().iterations()).isEqualTo(4096);
        assertThat(scram.scram().orElseThrow().storedKey()).hasSize(32);
        assertThat(f.secret("odd\"name")).contains(Secret.of(""));
        assertThat(scram.toString()).doesNotContain("SCRAM-SHA-256$");
    }

    @Test
    void malformedHashesArePlainPasswords() {
        assertThat(Secret.of("md5xyz").kind()).isEqualTo(Secret.Kind.PLAIN);
        assertThat(Secret.of("md5" + "g".repeat(32)).kind()).isEqualTo(Secret.Kind.PLAIN);
        assertThat(Secret.of("SCRAM-SHA-256$4096:abc").kind()).isEqualTo(Secret.Kind.PLAIN);
    }

    @Test
    void brokenLinesNameFileAndLine() {
        assertThatThrownBy(() -> AuthFileParser.parse("u.txt", "\"a\" \"b\"\nuser pass\n"))
                .isInstanceOf(AuthFileException.class).hasMessage("u.txt:2: broken auth file");
        assertThatThrownBy(() -> AuthFileParser.parse("u.txt", "\"a\" \"b\n"))
                .hasMessage("u.txt:1: broken auth file");
        assertThatThrownBy(() -> AuthFileParser.parse("u.txt", "\"a\"\n"))
                .hasMessage("u.txt:1: broken auth file");
    }

    @Test
    void limits() throws Exception {
        String user127 = "u".repeat(127);
        assertThat(AuthFileParser.parse("u.txt", "\"" + user127 + "\" \"x\"").users()).containsKey(user127);
        assertThatThrownBy(() -> AuthFileParser.parse("u.txt", "\"" + "u".repeat(128) + "\" \"x\""))
                .hasMessage("u.txt:1: username too long in auth file");
        assertThatThrownBy(() -> AuthFileParser.parse("u.txt", "\"u\" \"" + "p".repeat(2048) + "\""))
                .hasMessage("u.txt:1: password too long in auth file");
    }
}
