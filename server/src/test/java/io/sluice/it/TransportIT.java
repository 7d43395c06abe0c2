package io.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both native transports serve the same clients: io_uring, the default where the kernel allows
 * it, and epoll, which {@code -Dsluice.io=epoll} forces (and which runs where io_uring is
 * refused). TCP and unix-socket clients, transaction pooling under pgbench, and the start-up
 * line that names the transport, as PgBouncer's names libevent's backend.
 */
class TransportIT {
    private static final Path JAR = Path.of("target", "sluice.jar");

    @TempDir
    Path sockets;

    @ParameterizedTest
    @ValueSource(strings = {"io_uring", "epoll"})
    void clientsAreServedOverTcpAndTheUnixSocket(String transport) throws Exception {
        assumeTrue(transport.equals("io_uring") ? IoUring.isAvailable() : Epoll.isAvailable(),
                transport + " is not available here");
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlogfile = sluice.log\npool_mode = transaction\n"
                + "default_pool_size = 4\nunix_socket_dir = " + sockets + "\n";
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m", "-Dsluice.io=" + transport)
                .ini(ini).userlist("\"postgres\" \"\"\n").start()) {
            ProcessResult tcp = ProcessRunner.psql("127.0.0.1", sluice.port(), "postgres", "postgres", null,
                    "select 'tcp'");
            assertThat(tcp.stdout().strip()).as(tcp.describe()).isEqualTo("tcp");
            ProcessResult unix = ProcessRunner.psql(sockets.toString(), sluice.port(), "postgres", "postgres", null,
                    "select 'unix'");
            assertThat(unix.stdout().strip()).as(unix.describe()).isEqualTo("unix");

            Path script = Files.writeString(sockets.resolve("select.sql"), "select 1;\n");
            ProcessResult bench = ProcessRunner.pgbench("-n", "-f", script.toString(), "-M", "extended",
                    "-c", "20", "-j", "2", "-t", "200", "-h", "127.0.0.1", "-p", Integer.toString(sluice.port()),
                    "-U", "postgres", "postgres");
            assertThat(bench.exitCode()).as(bench.describe()).isZero();
            assertThat(bench.stdout()).as(bench.describe())
                    .contains("number of transactions actually processed: 4000/4000");

            String log = Files.readString(sluice.dir().resolve("sluice.log"));
            assertThat(log).contains("process up: Sluice ").contains("(" + transport + ")");

            // SIGTERM with idle servers open: the closes finish before the loop stops
            sluice.signal("TERM");
            assertThat(sluice.waitFor(Duration.ofSeconds(20)))
                    .as("exits after SIGTERM; output:\n%s", sluice.output()).isTrue();
            assertThat(sluice.exitCode()).isZero();
            assertThat(sluice.output()).as("no stack trace on the way out").doesNotContain("Exception")
                    .doesNotContain("\tat io.netty");
        }
    }
}
