package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.sluice.it.PauseResumeIT.console;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHUTDOWN WAIT_FOR_CLIENTS and WAIT_FOR_SERVERS against a live Sluice: the listener closes at
 * once, the process stays up while a client (or a lent server) remains, and it exits when the
 * last one goes: the exit follows the departure, with no polling interval in between. The
 * SIGINT case also runs on Debian's PgBouncer 1.18 from the same ini.
 */
class ShutdownIT {
    private static SluiceFixture start() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("shutdb");
        pg.createDatabase(db, PgCluster.SUPERUSER);
        return SluiceFixture.start(pg, db + " = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\npool_mode = transaction\ndefault_pool_size = 5\nadmin_users = postgres",
                "\"postgres\" \"\"\n");
    }

    private static Connection connect(SluiceFixture s) throws Exception {
        String db = s.server.routing().config().databases().keySet().iterator().next();
        return io.sluice.testkit.Jdbc.connect("127.0.0.1", s.port, db, "postgres", null);
    }

    private static boolean refuses(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static void closeIfRunning(SluiceFixture s) throws Exception {
        if (!s.server.terminated().isDone()) {
            s.close();
        }
    }

    @Test
    void waitForClientsExitsWhenTheLastClientLeaves() throws Exception {
        SluiceFixture s = start();
        try {
            Connection c = connect(s);
            try (Statement st = c.createStatement()) {
                st.execute("select 1");
                ProcessResult r = console(s, "shutdown wait_for_clients");
                assertThat(r.exitCode()).as(r.describe()).isZero();
                Await.until(Duration.ofSeconds(10), () -> refuses(s.port), "listener closed");
                st.execute("select 2"); // a connected client carries on
                assertThat(s.server.terminated()).as("a client is still connected").isNotDone();
            }
            c.close();
            assertThat(s.server.terminated().get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            closeIfRunning(s);
        }
    }

    @Test
    void waitForClientsAcceptsNoNewClientOnTheUnixSocketEither() throws Exception {
        SluiceFixture s = start();
        try {
            Path socket = s.dir.resolve(".s.PGSQL." + s.port);
            assertThat(unixAccepts(socket)).as("the unix socket accepts before the shutdown").isTrue();
            try (Connection c = connect(s)) {
                ProcessResult r = console(s, "shutdown wait_for_clients");
                assertThat(r.exitCode()).as(r.describe()).isZero();
                Await.until(Duration.ofSeconds(10), () -> !unixAccepts(socket), "unix socket closed");
                assertThat(Files.exists(socket)).as("socket file removed").isFalse();
                assertThat(Queries.run(c, "select 2")).as("a connected client carries on").isEqualTo("2");
            }
            assertThat(s.server.terminated().get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            closeIfRunning(s);
        }
    }

    private static boolean unixAccepts(Path socket) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            return ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * SIGINT (SHUTDOWN WAIT_FOR_SERVERS) with one server held by an open transaction, a client
     * queued for it and an idle client: on both poolers the open transaction finishes, the
     * process exits once that server is released, and neither the queued nor the idle client is
     * served. Sluice closes its TCP listener and answers those two with "server shutting down"
     * at once, as PgBouncer 1.25 does; 1.18 keeps listening and holds them until it exits.
     */
    @Test
    void sigintAnswersQueuedAndIdleClientsAndExitsOnceTheLastServerIsReleased() throws Exception {
        String ini = "[databases]\nsd = host=127.0.0.1 port=" + PgCluster.shared().port() + " dbname=postgres\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\ndefault_pool_size = 1\n"
                + "admin_users = postgres\nlog_stats = 0\nquery_wait_timeout = 60\n"
                + "ignore_startup_parameters = extra_float_digits\n";
        List<Pooler> poolers = Pooler.both(ini, "\"postgres\" \"\"\n");
        Map<String, List<String>> seen = new LinkedHashMap<>();
        try {
            for (Pooler p : poolers) {
                Connection idle = p.connect("sd");
                Connection holder = p.connect("sd");
                Connection queued = p.connect("sd");
                try {
                    assertThat(Queries.run(idle, "select 1")).isEqualTo("1");
                    holder.setAutoCommit(false);
                    assertThat(Queries.run(holder, "select 1")).isEqualTo("1");
                    CompletableFuture<String> queuedQuery = Queries.start(queued, "select 'served'");
                    Await.until(Duration.ofSeconds(10), () -> waiting(p) == 1, p + ": a client queued");

                    p.signal("INT");
                    Await.until(Duration.ofSeconds(10), () -> p.log().contains("got SIGINT"), p + " got SIGINT");
                    CompletableFuture<String> idleQuery = Queries.start(idle, "select 'served'");
                    if (!p.isPgBouncer()) {
                        // PgBouncer 1.25 (1.18 keeps listening and holds new clients until it exits)
                        Await.until(Duration.ofSeconds(10), () -> refuses(p.port()), p + ": TCP listener closed");
                        assertThat(Queries.await(queuedQuery, 10)).as("the queued client is answered at once")
                                .contains("server shutting down");
                        assertThat(Queries.await(idleQuery, 10)).as("a new request is answered at once")
                                .contains("server shutting down");
                    }
                    List<String> outcome = new ArrayList<>();
                    outcome.add("open transaction carries on: " + Queries.run(holder, "select 2"));
                    outcome.add("running while the server is lent: " + !p.exited(Duration.ofMillis(300)));
                    holder.commit();
                    outcome.add("exits once it is released: " + p.exited(Duration.ofSeconds(15)));
                    outcome.add("exit code: " + p.exitCode());
                    outcome.add("queued client served: " + Queries.await(queuedQuery, 10).equals("served"));
                    outcome.add("idle client served: " + Queries.await(idleQuery, 10).equals("served"));
                    seen.put(p.name, outcome);
                } finally {
                    Queries.closeQuietly(idle);
                    Queries.closeQuietly(holder);
                    Queries.closeQuietly(queued);
                }
            }
        } finally {
            Pooler.closeAll(poolers);
        }
        System.out.println("SIGINT: " + seen);
        assertThat(seen.get("sluice")).containsExactly("open transaction carries on: 2",
                "running while the server is lent: true", "exits once it is released: true", "exit code: 0",
                "queued client served: false", "idle client served: false");
        if (seen.containsKey("pgbouncer")) {
            assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
        }
    }

    /**
     * SIGINT and SIGTERM to a pooler that holds no server (one login, refused): it exits 0 and
     * prints nothing but log lines. SIGINT closed Sluice's TCP listener, and the stop that
     * followed found no listener left to wait for: without a unix socket to close as well, the
     * loop stopped before io_uring finished the TCP close, and Netty printed a rejected-task
     * stack trace on every such SIGINT.
     */
    @Test
    void anIdlePoolerStopsOnSigintAndSigtermWithoutAStackTrace() throws Exception {
        String ini = "[databases]\nsd = host=127.0.0.1 port=" + PgCluster.shared().port() + " dbname=postgres\n"
                + "[pgbouncer]\nauth_type = trust\nlog_stats = 0\nunix_socket_dir =\n"; // TCP only, as in the failing case
        for (String signal : List.of("INT", "TERM")) {
            Map<String, String> seen = new LinkedHashMap<>();
            for (Pooler p : Pooler.both(ini, "\"postgres\" \"\"\n")) {
                try (p) {
                    try (Connection ignored = p.connect("nosuch")) {
                        throw new AssertionError(p + " served a database it does not have");
                    } catch (java.sql.SQLException refused) {
                        assertThat(refused.getMessage()).contains("no such database");
                    }
                    p.signal(signal);
                    boolean exited = p.exited(Duration.ofSeconds(15));
                    seen.put(p.name, "exited " + exited + ", code " + (exited ? p.exitCode() : -1)
                            + ", stack trace " + p.log().lines().anyMatch(l -> l.startsWith("\tat ")));
                }
            }
            System.out.println("SIG" + signal + ": " + seen);
            assertThat(seen.get("sluice")).as("SIG" + signal).isEqualTo("exited true, code 0, stack trace false");
            // 1.18's SIGTERM is an immediate exit with status 1; 1.25 waits for clients and exits 0, as Sluice
            if (seen.containsKey("pgbouncer") && signal.equals("INT")) {
                assertThat(seen.get("sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("pgbouncer"));
            }
        }
    }

    /** cl_waiting of the pool, from the pooler's console. */
    private static int waiting(Pooler p) {
        ProcessResult r = io.sluice.testkit.ProcessRunner.of("psql", "-X", "-A", "-h", "127.0.0.1", "-p",
                String.valueOf(p.port()), "-U", "postgres", "-d", "pgbouncer", "-c", "show pools").run();
        if (!r.ok()) {
            return -1;
        }
        List<String> lines = r.stdout().lines().toList();
        List<String> names = List.of(lines.get(0).split("\\|"));
        return lines.stream().skip(1).map(l -> l.split("\\|", -1)).filter(c -> c.length == names.size() && c[0].equals("sd"))
                .mapToInt(c -> Integer.parseInt(c[names.indexOf("cl_waiting")])).sum();
    }

    @Test
    void waitForServersExitsWhenTheLastLentServerComesBack() throws Exception {
        SluiceFixture s = start();
        try (Connection c = connect(s); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("select 1"); // holds a server until commit
            ProcessResult r = console(s, "shutdown wait_for_servers");
            assertThat(r.exitCode()).as(r.describe()).isZero();
            Await.until(Duration.ofSeconds(10), () -> refuses(s.port), "listener closed");
            st.execute("select 2"); // the open transaction carries on
            assertThat(s.server.terminated()).as("a server is still lent out").isNotDone();
            c.commit();
            assertThat(s.server.terminated().get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            closeIfRunning(s);
        }
    }
}
