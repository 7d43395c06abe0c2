package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 15 item 8: the listening socket's accept queue is {@code listen_backlog} deep, and a
 * pooler out of file descriptors says so once in the logfile in PgBouncer's words, keeps serving
 * the clients it has, and accepts again once descriptors are free.
 */
class AcceptLimitsIT {
    private static final Path JAR = Path.of("target", "sluice.jar");
    private static final String USERS = "\"postgres\" \"\"\n";

    private static String ini(String extra) {
        return "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlogfile = sluice.log\nmax_client_conn = 2000\n" + extra + "\n";
    }

    /** {@code ss -ltn} shows a listening socket's backlog in its Send-Q column. */
    private static int backlogOf(int port) {
        ProcessResult r = ProcessRunner.of("ss", "-Hltn", "sport = :" + port).timeout(Duration.ofSeconds(10)).run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        String[] cells = r.stdout().strip().split("\\s+");
        assertThat(cells).as(r.stdout()).hasSizeGreaterThan(2);
        return Integer.parseInt(cells[2]);
    }

    @Test
    void theAcceptQueueIsListenBacklogDeep() {
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini("")).userlist(USERS).start()) {
            assertThat(backlogOf(sluice.port())).as("PgBouncer's default listen_backlog").isEqualTo(128);
        }
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini("listen_backlog = 777"))
                .userlist(USERS).start()) {
            assertThat(backlogOf(sluice.port())).isEqualTo(777);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"io_uring", "epoll"})
    void runningOutOfFileDescriptorsIsOneLogLineAndServingGoesOn(String transport) throws Exception {
        assumeTrue(transport.equals("io_uring") ? IoUring.isAvailable() : Epoll.isAvailable(),
                transport + " is not available here");
        // a JVM at rest holds about 20 descriptors; 160 leaves room for a bystander and a server
        try (SluiceProcess sluice = new SluiceProcess(JAR).launcher("prlimit", "--nofile=160:160")
                .jvmArgs("-Xmx128m", "-Dsluice.io=" + transport).ini(ini("")).userlist(USERS).start();
             RawClient bystander = new RawClient(sluice.port())) {
            bystander.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
            assertThat(bystander.readUntilReadyOrError()).isNull();
            assertThat(bystander.queryOne("select 1")).isEqualTo("1");
            Path logfile = sluice.dir().resolve("sluice.log");
            String wanted = "ERROR accept() failed: Too many open files";
            List<Socket> held = new ArrayList<>();
            try {
                // connects complete in the kernel's queue even when accept() cannot take them; once
                // that queue is full too (the log line can lag on a busy machine), one times out
                for (int i = 0; i < 400 && !read(logfile).contains(wanted); i++) {
                    Socket s = new Socket();
                    held.add(s);
                    try {
                        s.connect(new InetSocketAddress("127.0.0.1", sluice.port()), 2000);
                    } catch (SocketTimeoutException queueFull) {
                        break;
                    }
                    // the first byte of a startup packet: under tcp_defer_accept (on, as in
                    // PgBouncer) the kernel hands over only a connection that has sent something
                    s.getOutputStream().write(0);
                }
                Await.until(Duration.ofSeconds(20), () -> read(logfile).contains(wanted),
                        "the accept failure in the logfile");
                assertThat(bystander.queryOne("select 2")).as("a logged-in client is still served").isEqualTo("2");
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
            System.out.println("descriptors exhausted after " + held.size() + " idle connections");
            // accepting resumes after PgBouncer's 5 s pause; the new client may wait in the queue until then
            try (RawClient late = new RawClient(sluice.port())) {
                late.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                assertThat(late.readUntilReadyOrError()).isNull();
                assertThat(late.queryOne("select 3")).isEqualTo("3");
            }
            String log = read(logfile);
            long lines = log.lines().filter(l -> l.contains("accept() failed")).count();
            assertThat(lines).as("one line per 5 s pause, not one per refused connection").isBetween(1L, 4L);
            assertThat(sluice.output()).as("no stack trace on stderr").doesNotContain("\tat io.netty")
                    .doesNotContain("Exception");
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
