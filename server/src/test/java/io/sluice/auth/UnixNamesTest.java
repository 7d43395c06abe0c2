package io.sluice.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UnixNamesTest {
    private static final String PASSWD = """
            root:x:0:0:root:/root:/bin/bash
            # a comment:x:5:5
            postgres:x:105:110:PostgreSQL administrator,,,:/var/lib/postgresql:/bin/bash
            pgalias:x:105:110::/nonexistent:/usr/sbin/nologin
            """;

    @Test
    void firstLineWithTheUidNamesIt() {
        assertThat(UnixNames.nameOf(0, PASSWD)).isEqualTo("root");
        assertThat(UnixNames.nameOf(105, PASSWD)).isEqualTo("postgres");
        assertThat(UnixNames.nameOf(5, PASSWD)).isNull();
        assertThat(UnixNames.nameOf(4242, PASSWD)).isNull();
        assertThat(UnixNames.nameOf(-1, PASSWD)).isNull();
    }
}
