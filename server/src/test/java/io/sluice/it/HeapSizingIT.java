package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testkit.Await;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A max_client_conn whose clients the JVM's heap cannot hold is logged with the -Xmx that fits:
 * at start, and when SET raises it on a running process; one that fits says nothing. PgBouncer
 * has no such limit (it allocates as clients come), so a file it served must not turn into a
 * pooler that exits on an OutOfMemoryError once enough clients are connected, unannounced.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HeapSizingIT {
    private static final Path JAR = Path.of("target", "sluice.jar");
    private static final String WARNING = "WARNING max_client_conn = 20000 needs about 136 MiB of heap when every"
            + " client is connected, more than the JVM's maximum of ";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void startWithMoreClientsThanTheHeapHoldsSaysSo() {
        try (SluiceProcess p = new SluiceProcess(JAR).jvmArgs("-Xmx64m")
                .ini("[databases]\n[pgbouncer]\nmax_client_conn = 20000\n").start()) {
            Await.until(WAIT, () -> p.output().contains(WARNING), "the start-up warning");
            assertThat(p.output()).contains("MiB: set -Xmx192m in JAVA_OPTS");
        }
    }

    @Test
    void setThatRaisesMaxClientConnPastTheHeapSaysSoAndOneThatFitsDoesNot() {
        try (SluiceProcess p = new SluiceProcess(JAR).jvmArgs("-Xmx64m")
                .ini("[databases]\n[pgbouncer]\nauth_type = trust\nadmin_users = postgres\n")
                .userlist("\"postgres\" \"\"\n").start()) {
            console(p, "SET max_client_conn = 1000");
            console(p, "SET max_client_conn = 20000");
            Await.until(WAIT, () -> p.output().contains(WARNING), "the warning after SET");
            assertThat(p.output()).as("max_client_conn 100 and 1000 fit in 64 MiB").containsOnlyOnce("needs about");
        }
    }

    private static void console(SluiceProcess p, String command) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", p.port(), "pgbouncer", "postgres", null, command);
        assertThat(r.exitCode()).as(r.describe()).isZero();
    }
}
