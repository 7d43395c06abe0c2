package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotDaemonConfigTest {
    @TempDir
    Path dir;

    @Test
    void readsPgbouncerSectionAndIncludes() throws Exception {
        Path inc = dir.resolve("inc.ini");
        Files.writeString(inc, "logfile = /var/log/x.log\n");
        Path ini = dir.resolve("a.ini");
        Files.writeString(ini, String.join("\n",
                "[databases]", "db = host=127.0.0.1", "[pgbouncer]", ";pidfile = commented",
                "PidFile = /run/x.pid", "%include " + inc, "syslog = 1", "user = postgres", ""));
        assertThat(new SnapshotDaemonConfig().apply(ini))
                .isEqualTo(new DaemonConfig(Path.of("/run/x.pid"), Path.of("/var/log/x.log"), true, "postgres"));
    }

    @Test
    void emptyValuesAreUnset() throws Exception {
        Path ini = dir.resolve("a.ini");
        Files.writeString(ini, "[pgbouncer]\npidfile =\nlogfile=\nuser =\n");
        assertThat(new SnapshotDaemonConfig().apply(ini)).isEqualTo(DaemonConfig.NONE);
    }

    @Test
    void aFileThatDoesNotLoadIsCannotLoadConfigFileWithItsPlace() throws Exception {
        Path ini = dir.resolve("bad.ini");
        Files.writeString(ini, "[pgbouncer]\nno_such_key = 1\n");
        assertThatThrownBy(() -> new SnapshotDaemonConfig().apply(ini))
                .isInstanceOf(FatalError.class)
                .hasMessage("cannot load config file")
                .satisfies(e -> assertThat(((FatalError) e).errors()).containsExactly(
                        "unknown parameter: pgbouncer/no_such_key",
                        "invalid value \"1\" for parameter no_such_key in configuration (" + ini + ":2)"));
        assertThatThrownBy(() -> new SnapshotDaemonConfig().apply(dir.resolve("nope.ini")))
                .isInstanceOf(FatalError.class).hasMessageEndingWith("cannot load config file");
    }
}
