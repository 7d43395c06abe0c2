package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 14, pins: the console lists pinned clients in Sluice's own SHOW PINNED_CLIENTS (PgBouncer's
 * tables keep their columns, prepared_statements now counted), max_pinned_servers refuses a pin
 * beyond it with an error naming the key, and a client whose state is gone goes back to sharing.
 * A pinned client closed together with its server (server_fast_close after RECONNECT) leaves no pin.
 */
class PinnedClientsIT {
    static PgCluster pg;
    static SluiceFixture sluice;

    @BeforeAll
    static void start() throws Exception {
        pg = PgCluster.shared();
        sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT pool_size=2",
                "auth_type = trust\npool_mode = transaction\nadmin_users = postgres\nmax_pinned_servers = 1\n"
                        + "server_fast_close = 1\n"
                        + "ignore_startup_parameters = extra_float_digits", "\"postgres\" \"\"\n");
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
    }

    static Connection connect() throws SQLException {
        return Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, new Properties());
    }

    static String console(String sql) {
        ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, "pgbouncer", "postgres", null, sql);
        assertThat(r.exitCode()).as(r.describe()).isZero();
        return r.stdout().strip();
    }

    static void run(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void pinsAreListedCappedAndReleased() throws Exception {
        try (Connection a = connect(); Connection c = connect()) {
            run(a, "LISTEN pinned_jobs");
            // a LISTEN's pin is confirmed by a probe query that follows the client's
            // ReadyForQuery, so the console may be asked before its answer is in
            Await.until(Duration.ofSeconds(10), () -> !console("SHOW PINNED_CLIENTS").isEmpty(),
                    "the LISTEN's pin to be listed");
            String pinned = console("SHOW PINNED_CLIENTS");
            assertThat(pinned).contains("postgres|postgres|").endsWith("|listen=1");

            // the pin shows once the LISTEN is done: the refusal follows its ReadyForQuery
            try (RawClient raw = new RawClient(sluice.port)) {
                raw.send(RawClient.startup(java.util.Map.of("user", "postgres", "database", "postgres")));
                assertThat(raw.readUntilReadyOrError()).isNull();
                raw.send(RawClient.query("LISTEN other_jobs"));
                assertThat(raw.readUntilReadyOrError()).as("the LISTEN itself completes").isNull();
                var refused = raw.readUntilReadyOrError();
                assertThat(refused).containsEntry('C', "53300");
                assertThat(refused.get('M')).contains("max_pinned_servers=1");
                assertThat(raw.closedByServer()).isTrue();
            }

            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select 7")) {
                rs.next();
                assertThat(rs.getInt(1)).as("the unpinned server still serves others").isEqualTo(7);
            }
            run(a, "UNLISTEN *");
            Await.until(Duration.ofSeconds(10), () -> console("SHOW PINNED_CLIENTS").isEmpty(),
                    "the pin to go with the state");
        }
    }

    @Test
    void showClientsCountsNamedStatementsInItsExistingColumn() throws Exception {
        Properties p = new Properties();
        p.setProperty("prepareThreshold", "1");
        try (Connection a = Jdbc.connect("127.0.0.1", sluice.port, "postgres", "postgres", null, p);
             var ps = a.prepareStatement("select ?::int")) {
            ps.setInt(1, 1);
            ps.executeQuery().close();
            String clients = console("SHOW CLIENTS");
            assertThat(clients.lines().filter(l -> l.startsWith("C|postgres|postgres|"))
                    .anyMatch(l -> l.split("\\|")[19].equals("1"))).as(clients).isTrue();
            assertThat(console("SHOW CLIENTS").lines().findFirst().orElseThrow().split("\\|")).hasSize(21);
        }
    }

    @Test
    void aPinnedClientClosedWithItsServerLeavesNoPin() throws Exception {
        try (Connection a = connect()) {
            run(a, "LISTEN reconnected_jobs");
            Await.until(Duration.ofSeconds(10), () -> !console("SHOW PINNED_CLIENTS").isEmpty(),
                    "the LISTEN's pin to be listed");
            // server_fast_close: the janitor closes the pinned client's idle server, and the client with it
            console("RECONNECT postgres");
            Await.until(Duration.ofSeconds(10), () -> console("SHOW PINNED_CLIENTS").isEmpty(),
                    "the closed client's pin to go");
            assertThatThrownBy(() -> run(a, "select 1")).hasMessageContaining("database configuration changed");
        }
        try (Connection b = connect()) {
            run(b, "LISTEN next_jobs"); // max_pinned_servers = 1: refused if the old pin stayed
            Await.until(Duration.ofSeconds(10), () -> console("SHOW PINNED_CLIENTS").endsWith("|listen=1"),
                    "the new client's pin");
            run(b, "UNLISTEN *");
        }
    }
}
