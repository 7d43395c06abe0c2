package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, the bad-input catalogue: every case of {@link HostileStartupCases},
 * {@link HostileMessageCases} and {@link HostileSaslCases} gets exactly the outcome it names (a
 * PostgreSQL-format ErrorResponse and a close, a silent close, an error the session survives, or
 * an ordinary answer), while a bystander runs {@code select 1} in a loop through the same pool
 * without a single failure, and at the end no server connection is left over: PostgreSQL's
 * backends for the pool's database are exactly the servers SHOW SERVERS lists, within pool_size.
 */
class HostileInputIT {
    private static final int POOL_SIZE = 4;
    static PgCluster pg;
    static String database;
    static SluiceFixture sluice;
    static Thread bystander;
    static volatile boolean stop;
    static final AtomicInteger served = new AtomicInteger();
    static final AtomicReference<Throwable> bystanderFailure = new AtomicReference<>();
    static final AtomicInteger tried = new AtomicInteger();
    /** Netty's own warnings (an exception no handler took, a failed task): there must be none. */
    static final List<String> nettyWarnings = java.util.Collections.synchronizedList(new ArrayList<>());
    static final java.util.logging.Handler NETTY_WARNINGS = new java.util.logging.Handler() {
        @Override
        public void publish(java.util.logging.LogRecord r) {
            if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                nettyWarnings.add(r.getMessage() + (r.getThrown() == null ? "" : ": " + r.getThrown()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    static Stream<Hostile.Case> cases() {
        return Stream.of(HostileStartupCases.cases(), HostileMessageCases.cases(), HostileSaslCases.cases())
                .flatMap(List::stream);
    }

    @BeforeAll
    static void start() throws Exception {
        java.util.logging.Logger.getLogger("io.netty").addHandler(NETTY_WARNINGS);
        pg = PgCluster.shared();
        database = PgCluster.uniqueName("hostile");
        pg.exec("create database " + database);
        Path hba = Files.createTempFile("sluice-hostile-hba", ".conf");
        Files.writeString(hba, "host all sasl 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n");
        hba.toFile().setReadable(true, false);
        hba.toFile().deleteOnExit();
        // tcp_defer_accept = 0: "connect and say nothing" is the pooler's client_login_timeout only
        // when the kernel hands over a silent connection at once (by default it holds it 45 s or more)
        sluice = SluiceFixture.start(pg, "hostile = host=127.0.0.1 port=$PGPORT dbname=" + database
                        + " user=postgres pool_size=" + POOL_SIZE,
                "auth_type = hba\nauth_hba_file = " + hba + "\npool_mode = transaction\nclient_login_timeout = 2\n"
                        + "max_packet_size = 1048576\nadmin_users = plain\ntcp_defer_accept = 0\n",
                "\"plain\" \"\"\n\"bystander\" \"\"\n\"sasl\" \"secret\"\n");
        Connection conn = Jdbc.connect("127.0.0.1", sluice.port, "hostile", "bystander", null, new Properties());
        bystander = new Thread(() -> {
            try (conn; Statement st = conn.createStatement()) {
                while (!stop) {
                    try (ResultSet rs = st.executeQuery("select 1")) {
                        rs.next();
                        if (rs.getInt(1) != 1) {
                            throw new AssertionError("select 1 gave " + rs.getInt(1));
                        }
                    }
                    served.incrementAndGet();
                }
            } catch (Throwable t) {
                bystanderFailure.set(t);
            }
        }, "bystander");
        bystander.start();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersCleanly(Hostile.Case c) throws Exception {
        tried.incrementAndGet();
        int before = served.get();
        try (RawClient client = new RawClient(sluice.port)) {
            enter(client, c.phase());
            c.script().run(client);
            Hostile.verify(client, c.expected());
        }
        Await.until(Duration.ofSeconds(10), () -> served.get() > before || bystanderFailure.get() != null,
                "the bystander served after this case");
        assertThat(bystanderFailure.get()).as("bystander").isNull();
    }

    private static void enter(RawClient c, Hostile.Phase phase) throws Exception {
        switch (phase) {
            case FRESH -> { }
            case LOGGED_IN -> {
                c.send(Hostile.startup(HostileStartupCases.LOGIN));
                assertThat(c.readUntilReadyOrError()).isNull();
            }
            case SASL -> {
                c.send(Hostile.startup(Map.of("user", "sasl", "database", "hostile")));
                RawClient.Message m = c.readMessage();
                assertThat(m.type()).isEqualTo('R');
                assertThat(java.nio.ByteBuffer.wrap(m.body()).getInt()).as("AuthenticationSASL").isEqualTo(10);
            }
        }
    }

    @AfterAll
    static void bystanderNeverFailedAndNothingLeaked() throws Exception {
        stop = true;
        bystander.join(30_000);
        try {
            System.out.println("hostile inputs tried: " + tried.get() + ", bystander queries served: " + served.get());
            assertThat(bystanderFailure.get()).as("bystander").isNull();
            assertThat(tried.get()).isGreaterThanOrEqualTo(50);
            assertThat(nettyWarnings).as("no exception escaped to Netty").isEmpty();
            // PostgreSQL's backends for the pool's database are the servers Sluice lists, no more
            Await.until(Duration.ofSeconds(30), () -> backends().equals(servers()),
                    "no backend outside Sluice's server list");
            assertThat(backends()).hasSizeLessThanOrEqualTo(POOL_SIZE);
        } finally {
            java.util.logging.Logger.getLogger("io.netty").removeHandler(NETTY_WARNINGS);
            sluice.close();
        }
    }

    private static Set<String> backends() {
        return pg.query("select pid from pg_stat_activity where datname = '" + database + "'").stream()
                .map(r -> r.get(0)).collect(Collectors.toSet());
    }

    /** remote_pid of every server in SHOW SERVERS, read through the console with psql. */
    private static Set<String> servers() {
        ProcessResult r = ProcessRunner.of("psql", "-X", "-A", "-F", "|", "-h", "127.0.0.1", "-p",
                String.valueOf(sluice.port), "-U", "plain", "-d", "pgbouncer", "-c", "show servers").run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        List<String> lines = new ArrayList<>(r.stdout().lines().toList());
        List<String> names = List.of(lines.get(0).split("\\|"));
        int pid = names.indexOf("remote_pid");
        return lines.stream().skip(1).map(l -> l.split("\\|", -1)).filter(cells -> cells.length == names.size())
                .map(cells -> cells[pid]).collect(Collectors.toSet());
    }
}
