package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up descriptor line: /proc limits read, PgBouncer's expected use. */
class FdLimitsTest {
    @Test
    void readsSoftAndHardOpenFiles(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("limits");
        Files.writeString(f, "Limit                     Soft Limit           Hard Limit           Units\n"
                + "Max processes             63704                63704                processes\n"
                + "Max open files            1024                 524288               files\n");
        assertThat(FdLimits.limits(f)).hasValueSatisfying(l -> assertThat(l).containsExactly(1024, 524288));
    }

    @Test
    void unlimitedAndUnreadable(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("limits");
        Files.writeString(f, "Max open files            unlimited            unlimited            files\n");
        assertThat(FdLimits.limits(f)).hasValueSatisfying(l -> assertThat(l).containsExactly(-1, -1));
        assertThat(FdLimits.limits(dir.resolve("missing"))).isEmpty();
    }
}
