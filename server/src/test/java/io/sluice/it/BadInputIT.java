package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 2, acceptance 6: malformed and hostile clients get PgBouncer's errors and are closed,
 * while a bystander keeps being served and no server connection leaks.
 */
class BadInputIT {
    static PgCluster pg;
    static SluiceFixture sluice;
    static Connection bystander;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        // tcp_defer_accept = 0: with PgBouncer's default the kernel holds a TCP client that sends
        // nothing for 45 s or more before any pooler sees it, and client_login_timeout is tried here
        sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT pool_size=4",
                "auth_type = trust\npool_mode = transaction\nclient_login_timeout = 1\nadmin_users = postgres\n"
                        + "ignore_startup_parameters = extra_float_digits\ntcp_defer_accept = 0",
                "\"postgres\" \"\"\n");
        bystander = Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, new Properties());
    }

    @AfterAll
    static void stop() throws Exception {
        bystander.close();
        sluice.close();
    }

    @AfterEach
    void bystanderStillServed() throws Exception {
        try (Statement st = bystander.createStatement(); var rs = st.executeQuery("select 11")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(11);
        }
    }

    @Test
    void randomBytesInsteadOfStartupPacket() throws Exception {
        byte[] junk = new byte[64];
        new Random(42).nextBytes(junk);
        junk[0] = 0x7f; // read as a type byte, as PgBouncer reads it,
        junk[1] = 0x10; // then a length far above the startup packet limit
        try (RawClient c = new RawClient(sluice.port)) {
            c.send(junk);
            Map<Character, String> e = c.readUntilReadyOrError();
            assertThat(e.get('C')).isEqualTo("08P01");
            assertThat(e.get('M')).isEqualTo("client sent partial pkt in startup phase");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void lengthOfTwoToThe31MinusOne() throws Exception {
        try (RawClient c = loggedIn()) {
            c.send(ByteBuffer.allocate(5).put((byte) 'Q').putInt(Integer.MAX_VALUE).array());
            Map<Character, String> e = c.readUntilReadyOrError();
            assertThat(e.get('C')).isEqualTo("08P01");
            assertThat(e.get('M')).startsWith("bad packet header");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void anUnknownMessageTypeIsRefusedWithoutCostingAServer() throws Exception {
        java.util.Set<String> before;
        try (RawClient c = loggedIn()) {
            c.send(RawClient.query("select 1"));
            assertThat(c.readUntilReadyOrError()).isNull();
            before = backends(); // includes the server that just served this client
            c.send(ByteBuffer.allocate(5).put((byte) 'y').putInt(4).array());
            Map<Character, String> e = c.readUntilReadyOrError();
            assertThat(e).containsEntry('C', "08P01").containsEntry('M', "unknown pkt");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawClient c = loggedIn()) {
            c.send(RawClient.query("select 1"));
            assertThat(c.readUntilReadyOrError()).as("the pool still serves").isNull();
        }
        java.util.Set<String> after = backends();
        assertThat(after).as("no backend was killed by the bad message").containsAll(before);
    }

    @Test
    void lengthSmallerThanFour() throws Exception {
        try (RawClient c = loggedIn()) {
            c.send(ByteBuffer.allocate(5).put((byte) 'Q').putInt(3).array());
            Map<Character, String> e = c.readUntilReadyOrError();
            assertThat(e.get('C')).isEqualTo("08P01");
            assertThat(e.get('M')).startsWith("bad packet header");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void startupPacketWithoutUser() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            c.send(RawClient.startup(Map.of("database", "postgres")));
            Map<Character, String> e = c.readUntilReadyOrError();
            assertThat(e).containsEntry('C', "08P01").containsEntry('M', "no username supplied");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void silentClientIsClosedAtClientLoginTimeout() throws Exception {
        try (RawClient c = new RawClient(sluice.port)) {
            Map<Character, String> e = c.readUntilReadyOrError();
            assertThat(e).containsEntry('M', "client_login_timeout");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void clientLeavingMidTransactionLeaksNothing() throws Exception {
        java.util.Set<String> before = backends();
        for (int i = 0; i < 6; i++) {
            try (RawClient c = loggedIn()) {
                c.send(RawClient.query("begin; create temp table left_behind(x int); select 1"));
                assertThat(c.readUntilReadyOrError()).isNull();
                if (i % 2 == 0) {
                    c.send(RawClient.query("select pg_sleep(5)"));
                }
            } // socket closed in the middle of a query (even i) or idle in a transaction (odd i):
              // either way PgBouncer closes that server, and so does Sluice
        }
        Await.until(Duration.ofSeconds(20), () -> pool("sv_active").equals("0") && pool("cl_active").equals("1"),
                "server connections returned or closed");
        // a backend sleeping in pg_sleep notices its closed socket only when the sleep ends
        Await.until(Duration.ofSeconds(20), () -> before.containsAll(backends()),
                "no server a departed client used is kept");
        Await.until(Duration.ofSeconds(20), () -> pg.query("select count(*) from pg_stat_activity where datname = 'postgres'"
                + " and state like 'idle in transaction%'").get(0).get(0).equals("0"), "no backend left in a transaction");
    }

    /** Pids of the backends connected to database postgres, other than the asking one. */
    static java.util.Set<String> backends() {
        return pg.query("select pid from pg_stat_activity where datname = 'postgres' and pid <> pg_backend_pid()"
                + " and backend_type = 'client backend'").stream().map(r -> r.get(0))
                .collect(java.util.stream.Collectors.toSet());
    }

    /** One column of this pool's SHOW POOLS row, read through the admin console with psql. */
    static String pool(String column) {
        ProcessResult r = ProcessRunner.psqlCommand("127.0.0.1", sluice.port, "pgbouncer", "postgres", null,
                "show pools").run();
        assertThat(r.exitCode()).as(r.describe()).isZero();
        ProcessResult header = ProcessRunner.of("psql", "-X", "-A", "-h", "127.0.0.1", "-p", String.valueOf(sluice.port),
                "-U", "postgres", "-d", "pgbouncer", "-c", "show pools").run();
        String[] lines = header.stdout().split("\n");
        String[] names = lines[0].split("\\|");
        for (String line : lines) {
            String[] cells = line.split("\\|", -1);
            if (cells.length == names.length && cells[0].equals("postgres") && cells[1].equals("postgres")) {
                for (int i = 0; i < names.length; i++) {
                    if (names[i].equals(column)) {
                        return cells[i];
                    }
                }
            }
        }
        throw new AssertionError("no postgres/postgres row with " + column + " in:\n" + header.stdout());
    }

    static RawClient loggedIn() throws Exception {
        RawClient c = new RawClient(sluice.port);
        c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
        assertThat(c.readUntilReadyOrError()).isNull();
        return c;
    }
}
