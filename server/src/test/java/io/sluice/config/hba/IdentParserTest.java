package io.sluice.config.hba;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IdentParserTest {

    @Test
    void mapsSystemUsersToDatabaseUsers() throws Exception {
        IdentMaps m = IdentParser.parse("ident.conf", """
                # MAPNAME  SYSTEM-USERNAME  PG-USERNAME
                ops        root             postgres
                ops        alice            all      # alice may be anyone
                app        "web server"     "all"
                """);
        assertThat(m.has("ops")).isTrue();
        assertThat(m.has("nope")).isFalse();
        assertThat(m.allows("ops", "root", "postgres")).isTrue();
        assertThat(m.allows("ops", "root", "alice")).isFalse();
        assertThat(m.allows("ops", "alice", "anything")).isTrue();
        assertThat(m.allows("app", "web server", "all")).as("a quoted all is a name").isTrue();
        assertThat(m.allows("app", "web server", "other")).isFalse();
        assertThat(m.allows("nope", "root", "root")).isFalse();
    }

    @Test
    void refusesWhatPgBouncerLacks() {
        assertThatThrownBy(() -> IdentParser.parse("ident.conf", "m /^(.*)$ \\1\n"))
                .hasMessage("ident.conf:1: not supported: regular expressions in auth_ident_file");
        assertThatThrownBy(() -> IdentParser.parse("ident.conf", "m root +admins\n"))
                .hasMessage("ident.conf:1: not supported: +group in auth_ident_file");
        assertThatThrownBy(() -> IdentParser.parse("ident.conf", "\nm root\n"))
                .hasMessage("ident.conf:2: ident line needs map-name system-username database-username");
    }
}
