package io.sluice.it;

import io.sluice.testkit.FreePorts;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, acceptance 5: several hosts per database and {@code load_balance_hosts}. One
 * PostgreSQL listens on 127.0.0.1 and 127.0.0.2 (same port), so a two-host list works with
 * Debian's PgBouncer 1.18 too, which has host lists (round-robin, since 1.17) but neither
 * {@code load_balance_hosts} nor port lists (1.21 and 1.24): round-robin is compared side by
 * side, {@code disable} and port lists are pinned against PgBouncer's config.md and its
 * dns_connect() (stay on a host; move on when the pool's last connect failed).
 */
class HostListIT {
    private static PgCluster pg;

    @BeforeAll
    static void start() {
        pg = PgCluster.builder().alsoListenOn("127.0.0.2").config("max_connections = 40").start();
    }

    @AfterAll
    static void stop() {
        if (pg != null) {
            pg.close();
        }
    }

    private static String databases(int deadPort) {
        int p = pg.port();
        return "rr = host=127.0.0.1,127.0.0.2 port=" + p + " dbname=postgres user=postgres\n"
                + "dis = host=127.0.0.1,127.0.0.2 port=" + p + " dbname=postgres user=postgres load_balance_hosts=disable\n"
                + "badfirst = host=127.0.0.1,127.0.0.1 port=" + deadPort + "," + p
                + " dbname=postgres user=postgres load_balance_hosts=disable\n";
    }

    private static final String USERS = "\"postgres\" \"\"\n";
    private static final String SETTINGS = "pool_mode = session\nauth_type = trust\nserver_login_retry = 1\n";

    @Test
    void roundRobinGivesEachNewServerConnectionTheNextHostAsPgBouncerDoes() throws Exception {
        List<String> sluice;
        try (SluiceFixture s = SluiceFixture.start(pg, databases(FreePorts.next()), SETTINGS, USERS)) {
            sluice = heldServerAddresses(s.port, "rr", 4);
        }
        System.out.println("round-robin, server address per client, Sluice: " + sluice);
        assertThat(sluice).containsExactly("127.0.0.1", "127.0.0.2", "127.0.0.1", "127.0.0.2");
        if (PgBouncerProcess.available()) {
            String only = "rr = host=127.0.0.1,127.0.0.2 port=" + pg.port() + " dbname=postgres user=postgres\n";
            try (PgBouncerProcess pgb = PgBouncerProcess.start("[databases]\n" + only + "[pgbouncer]\n" + SETTINGS,
                    USERS)) {
                List<String> bouncer = heldServerAddresses(pgb.port(), "rr", 4);
                System.out.println("round-robin, PgBouncer " + PgBouncerProcess.version() + ": " + bouncer);
                assertThat(sluice).isEqualTo(bouncer);
            }
        }
    }

    @Test
    void disableStaysOnTheFirstHostAndMovesOnOnlyAfterAFailedConnect() throws Exception {
        try (SluiceFixture s = SluiceFixture.start(pg, databases(FreePorts.next()), SETTINGS, USERS)) {
            List<String> stay = heldServerAddresses(s.port, "dis", 3);
            System.out.println("load_balance_hosts=disable, good host first: " + stay);
            assertThat(stay).containsOnly("127.0.0.1").hasSize(3);

            // host 1 refuses (nothing listens on its port): the waiting client is served from host 2 after
            // server_login_retry, and later connections stay there
            List<String> moved = heldServerPorts(s.port, "badfirst", 3);
            System.out.println("load_balance_hosts=disable, dead port first: server ports " + moved);
            assertThat(moved).containsOnly(Integer.toString(pg.port())).hasSize(3);
        }
    }

    /** Opens {@code n} clients at once and holds them, so each has its own server (session mode). */
    private static List<String> heldServerAddresses(int port, String db, int n) throws SQLException {
        return held(port, db, n, "select host(inet_server_addr())");
    }

    private static List<String> heldServerPorts(int port, String db, int n) throws SQLException {
        return held(port, db, n, "select inet_server_port()");
    }

    private static List<String> held(int port, String db, int n, String sql) throws SQLException {
        List<Connection> open = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Connection c = Jdbc.connect("127.0.0.1", port, db, "postgres", null);
                open.add(c);
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                    rs.next();
                    answers.add(rs.getString(1));
                }
            }
        } finally {
            for (Connection c : open) {
                c.close();
            }
        }
        return answers;
    }
}
