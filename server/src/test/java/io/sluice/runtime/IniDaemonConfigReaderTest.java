package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IniDaemonConfigReaderTest {
    @TempDir
    Path dir;

    @Test
    void readsPgbouncerSectionAndIncludes() throws Exception {
        Path inc = dir.resolve("inc.ini");
        Files.writeString(inc, "logfile = /var/log/x.log\n");
        Path ini = dir.resolve("a.ini");
        Files.writeString(ini, String.join("\n",
                "[databases]", "pidfile = not-this", "[pgbouncer]", ";pidfile = commented",
                "PidFile = /run/x.pid", "%include " + inc, "syslog = 1", ""));
        assertThat(new IniDaemonConfigReader().apply(ini))
                .isEqualTo(new DaemonConfig(Path.of("/run/x.pid"), Path.of("/var/log/x.log"), true));
    }

    @Test
    void emptyValuesAreUnset() throws Exception {
        Path ini = dir.resolve("a.ini");
        Files.writeString(ini, "[pgbouncer]\npidfile =\nlogfile=\n");
        assertThat(new IniDaemonConfigReader().apply(ini)).isEqualTo(DaemonConfig.NONE);
    }

    @Test
    void missingFileIsCannotLoadConfigFile() {
        assertThatThrownBy(() -> new IniDaemonConfigReader().apply(dir.resolve("nope.ini")))
                .isInstanceOf(FatalError.class).hasMessage("cannot load config file");
    }
}
