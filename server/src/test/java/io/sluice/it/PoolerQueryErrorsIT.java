package io.sluice.it;

import io.sluice.testkit.PgCluster;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pooler's own queries on a server ending in an error, side by side with PgBouncer: a
 * server that answers server_check_query or server_reset_query, even with an error (a query
 * typed wrong in the config), stays in the pool, and a failing connect_query is logged and
 * ignored. Sluice used to close the server each time, so every checked or reset use opened a
 * new backend.
 */
class PoolerQueryErrorsIT {
    private static final String USERS = "\"postgres\" \"\"\n";

    private static String ini(String dbOptions, String settings) {
        return "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port()
                + " dbname=postgres pool_size=1 " + dbOptions + "\n[pgbouncer]\nauth_type = trust\n" + settings;
    }

    /** The backend pid each of {@code clients} one-query clients got, as "same" or "new" against the first. */
    private static List<String> backends(Pooler p, int clients) throws Exception {
        List<String> seen = new ArrayList<>();
        String first = null;
        for (int i = 0; i < clients; i++) {
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                if (c.readUntilReadyOrError() != null) {
                    return List.of("login failed");
                }
                String pid = c.queryOne("select pg_backend_pid()");
                if (first == null) {
                    first = pid;
                }
                seen.add(pid.equals(first) ? "same backend" : "new backend");
            }
        }
        return seen;
    }

    @Test
    void aCheckQueryAnsweredWithAnErrorKeepsTheServer() throws Exception {
        Pooler.sameAnswers("server_check_query error", ini("",
                        "pool_mode = transaction\nserver_check_delay = 0\nserver_check_query = select nosuch\n"), USERS,
                p -> backends(p, 3), "same backend", "same backend", "same backend");
    }

    @Test
    void aResetQueryAnsweredWithAnErrorKeepsTheServer() throws Exception {
        Pooler.sameAnswers("server_reset_query error", ini("",
                        "pool_mode = session\nserver_reset_query = select nosuch\n"), USERS,
                p -> backends(p, 3), "same backend", "same backend", "same backend");
    }

    @Test
    void aFailingConnectQueryIsLoggedAndIgnored() throws Exception {
        Pooler.sameAnswers("connect_query error", ini("connect_query='select nosuch'", "pool_mode = session\n"), USERS,
                p -> {
                    List<String> seen = new ArrayList<>(backends(p, 2));
                    seen.add(p.log().contains("S: error while executing exec_on_query: ERROR: column \"nosuch\" does not exist")
                            ? "logged in PgBouncer's words" : "not logged: " + p.log());
                    return seen;
                }, "same backend", "same backend", "logged in PgBouncer's words");
    }
}
