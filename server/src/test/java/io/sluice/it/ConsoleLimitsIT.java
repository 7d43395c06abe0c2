package io.sluice.it;

import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 12: the admin database is a database like the others for client limits, as in
 * PgBouncer 1.24+ (Debian's 1.18 has no max_db_client_connections or max_user_client_connections,
 * so there is nothing to run side by side): max_db_client_connections and
 * max_user_client_connections refuse stats users beyond them, admin_users are exempt, and SHOW
 * DATABASES reports each database's own limit. max_client_conn spares the console.
 */
class ConsoleLimitsIT {
    private static final String USERS = "\"postgres\" \"\"\n\"watcher\" \"\"\n\"watcher2\" \"\"\n\"watcher3\" \"\"\n";

    @Test
    void clientLimitsHoldForTheConsoleExceptForAdminUsers() throws Exception {
        PgCluster pg = PgCluster.shared();
        String databases = "postgres = host=127.0.0.1 port=$PGPORT\n"
                + "own = host=127.0.0.1 port=$PGPORT dbname=postgres max_db_client_connections=5";
        String settings = "auth_type = trust\nadmin_users = postgres\nstats_users = watcher, watcher2, watcher3\n"
                + "max_db_client_connections = 2\nmax_user_client_connections = 1\n";
        List<RawClient> held = new ArrayList<>();
        try (SluiceFixture sluice = SluiceFixture.start(pg, databases, settings, USERS)) {
            held.add(console(sluice.port, "watcher", null));
            console(sluice.port, "watcher", "client connections exceeded (max_user_client_connections)");
            held.add(console(sluice.port, "watcher2", null));
            console(sluice.port, "watcher3", "client connections exceeded (max_db_client_connections)");
            held.add(console(sluice.port, "postgres", null));
            held.add(console(sluice.port, "postgres", null));

            ProcessResult r = ProcessRunner.psql("127.0.0.1", sluice.port, "pgbouncer", "postgres", null,
                    "show databases");
            assertThat(r.exitCode()).as(r.describe()).isZero();
            Map<String, String[]> rows = new java.util.HashMap<>();
            r.out().lines().map(l -> l.split("\\|", -1)).forEach(f -> rows.put(f[0], f));
            // columns: ... 13 max_client_connections, 14 current_client_connections
            assertThat(rows.get("pgbouncer")[13]).as("the console's limit is the global one").isEqualTo("2");
            assertThat(Integer.parseInt(rows.get("pgbouncer")[14])).as("admins count, they are just not refused")
                    .isGreaterThanOrEqualTo(4);
            assertThat(rows.get("own")[13]).as("a database's own limit").isEqualTo("5");
            assertThat(rows.get("postgres")[13]).isEqualTo("2");
        } finally {
            for (RawClient c : held) {
                c.close();
            }
        }
    }

    @Test
    void maxClientConnSparesTheConsole() throws Exception {
        PgCluster pg = PgCluster.shared();
        List<RawClient> held = new ArrayList<>();
        try (SluiceFixture sluice = SluiceFixture.start(pg, "postgres = host=127.0.0.1 port=$PGPORT",
                "auth_type = trust\nadmin_users = postgres\nmax_client_conn = 2\n", USERS)) {
            for (int i = 0; i < 2; i++) {
                RawClient c = new RawClient(sluice.port);
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                assertThat(c.readUntilReadyOrError()).isNull();
                held.add(c);
            }
            try (RawClient refused = new RawClient(sluice.port)) {
                refused.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                assertThat(refused.readUntilReadyOrError())
                        .containsEntry('M', "no more connections allowed (max_client_conn)");
            }
            held.add(console(sluice.port, "postgres", null));
        } finally {
            for (RawClient c : held) {
                c.close();
            }
        }
    }

    /** Logs {@code user} into the console; null {@code refusal} means it must get in (and stay). */
    private static RawClient console(int port, String user, String refusal) throws Exception {
        RawClient c = new RawClient(port);
        c.send(RawClient.startup(Map.of("user", user, "database", "pgbouncer")));
        Map<Character, String> error = c.readUntilReadyOrError();
        if (refusal == null) {
            assertThat(error).as(user + " admitted").isNull();
            return c;
        }
        assertThat(error).as(user + " refused").isNotNull().containsEntry('M', refusal);
        c.close();
        return null;
    }
}
