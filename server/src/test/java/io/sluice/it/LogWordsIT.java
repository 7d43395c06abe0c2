package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.Encryption;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.SluiceProcess;
import io.sluice.testkit.Userlist;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 13 (and the "wrong password type" part of 14): what operators read in the log,
 * in PgBouncer's words and order, each scenario run on Sluice (a child JVM whose log is its
 * output) and on Debian's PgBouncer 1.18.
 */
class LogWordsIT {
    private static final Path JAR = Path.of("target", "sluice.jar");
    private static final String USERS = "\"postgres\" \"\"\n";

    /** A pooler under test: its port and its log so far. */
    record Pooler(String name, int port, Supplier<String> logText) {
        String log() {
            return logText.get();
        }
    }

    private interface Scenario {
        void run(Pooler p) throws Exception;
    }

    /** Runs {@code scenario} on Sluice, then on PgBouncer when it is installed. */
    private static void onBoth(String databases, String settings, String users, Scenario scenario) throws Exception {
        String ini = "[databases]\n" + databases + "\n[pgbouncer]\n" + settings + "\nlog_stats = 0\n";
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini).userlist(users).start()) {
            scenario.run(new Pooler("Sluice", sluice.port(), sluice::output));
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start(ini, users)) {
                scenario.run(new Pooler("PgBouncer " + PgBouncerProcess.version(), pgb.port(), pgb::logText));
            }
        }
    }

    /** Records the log lines {@code kept} selects, normalised, under "Sluice" or "PgBouncer". */
    private static void keep(Map<String, List<String>> seen, Pooler p, java.util.function.Predicate<String> kept) {
        seen.put(p.name().startsWith("Sluice") ? "Sluice" : "PgBouncer",
                p.log().lines().filter(kept).map(LogWordsIT::normal).toList());
    }

    /** The client's error, as soon as it is read; the log must already give the reason. */
    @Test
    void closingBecauseIsInTheLogBeforeTheClientHasItsError() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, Integer> missed = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(), "auth_type = trust", USERS, p -> {
            int late = 0;
            for (int i = 0; i < 30; i++) {
                String db = "nosuchdb" + i;
                try (RawClient c = new RawClient(p.port())) {
                    c.send(RawClient.startup(Map.of("user", "postgres", "database", db)));
                    assertThat(c.readUntilReadyOrError()).containsEntry('M', "no such database: " + db);
                    if (!p.log().contains("closing because: no such database: " + db + " (age=")) {
                        late++;
                    }
                }
            }
            missed.put(p.name(), late);
        });
        System.out.println("errors read before their reason was in the log (of 30): " + missed);
        missed.values().forEach(late -> assertThat(late).isZero());
    }

    @Test
    void serverLoginFailureIsLoggedInPgBouncersWords() throws Exception {
        PgCluster pg = PgCluster.shared();
        String db = PgCluster.uniqueName("nosuchdb");
        onBoth("bad = host=127.0.0.1 port=" + pg.port() + " dbname=" + db, "auth_type = trust", USERS, p -> {
            String message = "database \"" + db + "\" does not exist";
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "bad")));
                Map<Character, String> error = c.readUntilReadyOrError();
                assertThat(error).as(p.name()).containsEntry('M', message);
                if (p.name().equals("Sluice")) {
                    // PgBouncer 1.25 passes the server's SQLSTATE on; 1.18 still sent 08P01
                    assertThat(error).containsEntry('C', "3D000");
                }
            }
            String warning = "server login failed: FATAL " + message;
            Await.until(Duration.ofSeconds(10), () -> p.log().contains(warning), p.name() + " logs " + warning);
            System.out.println(p.name() + ": " + line(p.log(), warning));
            // the server socket is logged when it connects, so a login that fails names it too
            // (Sluice logged it only after a successful login)
            String connected = " S-0x";
            int newConnection = p.log().indexOf(" new connection to server (from 127.0.0.1:");
            assertThat(newConnection).as(p.name() + ": the failed server's new connection line").isPositive();
            assertThat(p.log().lastIndexOf(connected, newConnection)).as(p.name() + ": an S- line").isPositive();
            assertThat(newConnection).as(p.name() + ": before the failure").isLessThan(p.log().indexOf(warning));
            System.out.println(p.name() + ": " + line(p.log(), "new connection to server"));
        });
    }

    @Test
    void autoDatabaseRegistrationIsLoggedOnce() throws Exception {
        PgCluster pg = PgCluster.shared();
        onBoth("* = host=127.0.0.1 port=" + pg.port(), "auth_type = trust", USERS, p -> {
            for (int i = 0; i < 2; i++) {
                try (RawClient c = new RawClient(p.port())) {
                    c.send(RawClient.startup(Map.of("user", "postgres", "database", "template1")));
                    assertThat(c.readUntilReadyOrError()).isNull();
                    assertThat(c.queryOne("select current_database()")).isEqualTo("template1");
                }
            }
            Matcher m = Pattern.compile("\\(nodb\\)/\\(nouser\\)@[^ ]+ registered new auto-database: (db=)?template1").matcher(p.log());
            int count = 0;
            while (m.find()) {
                count++;
            }
            assertThat(count).as(p.name()).isEqualTo(1);
            System.out.println(p.name() + ": " + line(p.log(), "registered new auto-database"));
        });
    }

    /** The pool's secret is md5 but PostgreSQL asks for SCRAM: clients see PgBouncer's words. */
    @Test
    void wrongPasswordTypeReachesTheClientInPgBouncersWords() throws Exception {
        PgCluster pg = PgCluster.shared();
        String role = PgCluster.uniqueName("scramonly");
        pg.createUser(role, "secret", Encryption.SCRAM);
        onBoth("wpt = host=127.0.0.1 port=" + pg.port() + " dbname=postgres user=" + role, "auth_type = trust",
                USERS + Userlist.md5Entry(role, "secret"), p -> {
                    try (RawClient c = new RawClient(p.port())) {
                        c.send(RawClient.startup(Map.of("user", "postgres", "database", "wpt")));
                        Map<Character, String> error = c.readUntilReadyOrError();
                        assertThat(error).as(p.name()).containsEntry('M', "server login failed: wrong password type")
                                .containsEntry('C', "08P01");
                    }
                    String why = "cannot do SCRAM authentication: wrong password type";
                    Await.until(Duration.ofSeconds(10), () -> p.log().contains(why), p.name() + " logs " + why);
                });
    }

    /**
     * Server lines operators read: a session server in use when RECONNECT marked it closes at its
     * release for "close_needed"; an idle server PostgreSQL terminated says what it got ("got
     * packet 'E' from server when not linked") and closes for "server conn crashed?".
     */
    @Test
    void markedAndTerminatedServersCloseWithPgBouncersReasons() throws Exception {
        PgCluster pg = PgCluster.shared();
        String entry = " = host=127.0.0.1 port=" + pg.port() + " dbname=postgres";
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("sess" + entry + " pool_mode=session\ntx" + entry + " pool_mode=transaction",
                "auth_type = trust\nadmin_users = postgres", USERS, p -> {
                    try (java.sql.Connection c = io.sluice.testkit.Jdbc.connect("127.0.0.1", p.port(), "sess", "postgres", null)) {
                        assertThat(Queries.run(c, "select 1")).isEqualTo("1");
                        psql(p, "pgbouncer", "postgres", null, "RECONNECT sess");
                    }
                    Await.until(Duration.ofSeconds(10), () -> p.log().contains("sess/postgres@127.0.0.1:" + pg.port()
                            + " closing because"), p.name() + " closing the marked server");
                    String pid;
                    try (java.sql.Connection c = io.sluice.testkit.Jdbc.connect("127.0.0.1", p.port(), "tx", "postgres", null)) {
                        pid = Queries.run(c, "select pg_backend_pid()");
                    }
                    pg.query("select pg_terminate_backend(" + pid + ")");
                    Await.until(Duration.ofSeconds(10), () -> p.log().contains("server conn crashed?"),
                            p.name() + " closing the terminated server");
                    keep(seen, p, l -> l.contains(" S-0x") && !l.contains("new connection"));
                });
        sameLines("marked and terminated servers", seen,
                "LOG X: sess/postgres@127.0.0.1:PORT closing because: close_needed (age=Ns)",
                "WARNING X: tx/postgres@127.0.0.1:PORT got packet 'E' from server when not linked",
                "LOG X: tx/postgres@127.0.0.1:PORT closing because: server conn crashed? (age=Ns)");
    }

    /**
     * CopyData outside a COPY leaves the server not ready, as PgBouncer marks it (PostgreSQL
     * ignores the message), so a client that then leaves costs its server.
     */
    @Test
    void copyDataOutsideACopyLeavesTheServerNotReady() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(), "auth_type = trust", USERS, p -> {
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                assertThat(c.readUntilReadyOrError()).isNull();
                c.send(ByteBuffer.allocate(9).put((byte) 'd').putInt(8).put("abcd".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).array());
            }
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("server was not ready"), p.name() + " closing the server");
            keep(seen, p, l -> l.contains("closing because"));
        });
        sameLines("CopyData outside a COPY", seen,
                "LOG X: postgres/postgres@127.0.0.1:PORT closing because: client unexpected eof (age=Ns)",
                "LOG X: postgres/postgres@127.0.0.1:PORT closing because: client disconnect while server was not ready (age=Ns)");
    }

    /**
     * A server that cannot be reached is logged as PgBouncer logs it: one "closing because:
     * connect failed" line naming the configured address (the socket's own error only in verbose
     * output), then the waiting client's timeout.
     */
    @Test
    void aFailedConnectIsOneClosingLineWithTheServersAddress() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();   // free once closed: nothing listens there
        }
        int port = closed;
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("downdb = host=127.0.0.1 port=" + port, "auth_type = trust\nquery_wait_timeout = 1", USERS, p -> {
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "downdb")));
                assertThat(c.readUntilReadyOrError()).as(p.name()).containsEntry('M', "query_wait_timeout");
            }
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("pooler error: query_wait_timeout"),
                    p.name() + " logging the timeout");
            seen.put(p.name().startsWith("Sluice") ? "Sluice" : "PgBouncer", p.log().lines()
                    .filter(l -> l.contains("downdb"))
                    .map(LogWordsIT::normal)
                    .distinct().toList());
        });
        sameLines("a failed connect", seen,
                "LOG X: downdb/postgres@127.0.0.1:PORT login attempt: db=downdb user=postgres tls=no",
                "LOG X: downdb/postgres@127.0.0.1:PORT closing because: connect failed (age=Ns)",
                "LOG X: downdb/postgres@127.0.0.1:PORT closing because: query_wait_timeout (age=Ns)",
                "WARNING X: downdb/postgres@127.0.0.1:PORT pooler error: query_wait_timeout");
    }

    /**
     * Connections refused before a login log "closing because" with no pool named, as PgBouncer's
     * disconnect_client does whenever it has a reason: an old protocol, a bad header, an unknown
     * startup parameter (after a WARNING naming it with its value), no user, a cancel request with
     * an unknown key or a short one.
     */
    @Test
    void refusalsBeforeALoginAreLoggedWithTheirReason() throws Exception {
        PgCluster pg = PgCluster.shared();
        List<byte[]> sends = List.of(
                ByteBuffer.allocate(8).putInt(8).putInt(0x20000).array(),
                ByteBuffer.allocate(8).putInt(8).putInt(0).array(),
                RawClient.startup(new java.util.TreeMap<>(Map.of("user", "postgres", "database", "postgres", "foo", "bar"))),
                RawClient.startup(Map.of("database", "postgres")),
                RawClient.cancelRequest(12345, 67890),
                ByteBuffer.allocate(12).putInt(12).putInt(80877102).putInt(1).array());
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(), "auth_type = trust", USERS, p -> {
            for (byte[] bytes : sends) {
                try (RawClient c = new RawClient(p.port())) {
                    c.send(bytes);
                    while (c.readRawByte() >= 0) {
                        // until the pooler closes
                    }
                }
            }
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("closing because: bad cancel request"),
                    p.name() + " logging the last refusal");
            seen.put(p.name().startsWith("Sluice") ? "Sluice" : "PgBouncer", p.log().lines()
                    .filter(l -> l.contains("(nodb)/(nouser)"))
                    .map(l -> l.replaceAll("^.*? (LOG|WARNING|ERROR) ", "$1 ").replaceAll("C-0x[0-9a-f]+: ", "")
                            .replaceAll("@127.0.0.1:[0-9]+ ", " ").replaceAll("age=[0-9]+s", "age=Ns"))
                    .toList());
        });
        String at = "(nodb)/(nouser) ";
        sameLines("refusals before a login", seen,
                "LOG " + at + "closing because: old V2 protocol not supported (age=Ns)",
                "WARNING " + at + "pooler error: old V2 protocol not supported",
                "LOG " + at + "closing because: bad packet header: '0000000800000000' (age=Ns)",
                "WARNING " + at + "pooler error: bad packet header: '0000000800000000'",
                "WARNING " + at + "unsupported startup parameter: foo=bar",
                "LOG " + at + "closing because: unsupported startup parameter: foo (age=Ns)",
                "WARNING " + at + "pooler error: unsupported startup parameter: foo",
                "LOG " + at + "closing because: no username supplied (age=Ns)",
                "WARNING " + at + "pooler error: no username supplied",
                "LOG " + at + "closing because: failed cancel request (age=Ns)",
                "LOG " + at + "closing because: bad cancel request (age=Ns)");
    }

    /**
     * A cancel forwarded to PostgreSQL: its own server connection is logged as a server of the
     * pool, opened and then closed with "successfully sent cancel request", and the request's
     * client closes with the same words under the pool's database and no user.
     */
    @Test
    void aForwardedCancelLogsItsServerAndItsRequest() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(), "auth_type = trust", USERS, p -> {
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                assertThat(c.readUntilReadyOrError()).isNull();
                c.send(RawClient.query("select pg_sleep(30)"));
                Await.until(Duration.ofSeconds(10), () -> !pg.query(
                        "select 1 from pg_stat_activity where query = 'select pg_sleep(30)'").isEmpty(), "the query running");
                try (RawClient cancel = new RawClient(p.port())) {
                    cancel.send(RawClient.cancelRequest(c.backendPid, c.backendSecret));
                    assertThat(cancel.closedByServer()).isTrue();
                }
                assertThat(c.readUntilReadyOrError()).containsEntry('C', "57014");
            }
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("(nouser)@127.0.0.1"), p.name() + " logging the request");
            keep(seen, p, l -> l.matches(".*(new connection to server|successfully sent cancel request).*"));
        });
        sameLines("a forwarded cancel", seen,
                "LOG X: postgres/postgres@127.0.0.1:PORT new connection to server (from 127.0.0.1:PORT)",
                "LOG X: postgres/postgres@127.0.0.1:PORT new connection to server (from 127.0.0.1:PORT)",
                "LOG X: postgres/postgres@127.0.0.1:PORT closing because: successfully sent cancel request (age=Ns)",
                "LOG X: postgres/(nouser)@127.0.0.1:PORT closing because: successfully sent cancel request (age=Ns)");
    }

    /**
     * With log_connections and log_disconnections off, no connection line is written, for
     * servers either: not for one closed by query_timeout or by KILL.
     */
    @Test
    void connectionLinesFollowTheirSwitchesForServersToo() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(),
                "auth_type = trust\nadmin_users = postgres\nlog_connections = 0\nlog_disconnections = 0\nquery_timeout = 1",
                USERS, p -> {
                    psql(p, "postgres", "postgres", null, "select pg_sleep(3)");
                    psql(p, "postgres", "postgres", null, "select 1");
                    psql(p, "pgbouncer", "postgres", null, "KILL postgres");
                    psql(p, "pgbouncer", "postgres", null, "RESUME postgres");
                    Await.until(Duration.ofSeconds(10), () -> p.log().contains("pooler error: query timeout")
                            && p.log().contains("RESUME"), p.name() + " logging the timeout and the console");
                    keep(seen, p, l -> l.matches(".*(login attempt|new connection to server|closing because).*"));
                });
        sameLines("connection lines switched off", seen);
    }

    /**
     * SCRAM failures are logged as an ERROR with their cause before "closing because" (an MD5
     * secret, a wrong proof, an unknown user's mock exchange), and a client that hangs up while
     * asked for its password (psql before it prompts, a monitoring probe) logs nothing.
     */
    @Test
    void scramFailuresAreLoggedWithTheirCauseAndAHangUpAtThePasswordRequestIsNot() throws Exception {
        PgCluster pg = PgCluster.shared();
        String users = USERS + Userlist.md5Entry("alice", "secret") + Userlist.entry("bob", "secret");
        Map<String, java.util.List<String>> seen = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(), "auth_type = scram-sha-256", users, p -> {
            psql(p, "postgres", "alice", "secret", "select 1");
            psql(p, "postgres", "bob", "wrong", "select 1");
            psql(p, "postgres", "nobody", "x", "select 1");
            try (RawClient c = new RawClient(p.port())) {
                c.send(RawClient.startup(Map.of("user", "bob", "database", "postgres", "application_name", "hangup")));
                assertThat(c.readMessage().type()).as(p.name() + " asks for a password").isEqualTo('R');
            }
            psql(p, "postgres", "bob", "wrong", "select 1");   // a last line: the hang-up's would come before it
            Await.until(Duration.ofSeconds(10), () -> p.log().split("password authentication failed", -1).length > 3,
                    p.name() + " logging the last login");
            keep(seen, p, l -> l.matches(".*(login attempt|no such user|ERROR C-|closing because).*"));
        });
        String bob = "X: postgres/bob@127.0.0.1:PORT ";
        sameLines("SCRAM failure lines", seen,
                "LOG X: postgres/alice@127.0.0.1:PORT login attempt: db=postgres user=alice tls=no",
                "ERROR X: postgres/alice@127.0.0.1:PORT SCRAM authentication failed: user has MD5 secret",
                "LOG X: postgres/alice@127.0.0.1:PORT closing because: SASL authentication failed (age=Ns)",
                "LOG " + bob + "login attempt: db=postgres user=bob tls=no",
                "ERROR " + bob + "password authentication failed",
                "LOG " + bob + "closing because: SASL authentication failed (age=Ns)",
                "LOG X: (nodb)/(nouser)@127.0.0.1:PORT no such user: nobody",
                "LOG X: (nodb)/nobody@127.0.0.1:PORT login attempt: db=postgres user=nobody tls=no",
                "ERROR X: (nodb)/nobody@127.0.0.1:PORT password authentication failed",
                "LOG X: (nodb)/nobody@127.0.0.1:PORT closing because: SASL authentication failed (age=Ns)",
                "LOG " + bob + "login attempt: db=postgres user=bob tls=no",
                "LOG " + bob + "login attempt: db=postgres user=bob tls=no",
                "ERROR " + bob + "password authentication failed",
                "LOG " + bob + "closing because: SASL authentication failed (age=Ns)");
    }

    /**
     * The lines operators grep, for the same logins and console commands: the descriptor limit
     * and "listening on" at start; "login attempt" before the password exchange, for unknown databases and users
     * too, whose lines name no pool ("(nodb)", "(nouser)"); PAUSE closes servers for "pause
     * mode", KILL for "database removed". 1.25's " replication=none" suffix is left out when
     * comparing with 1.18, which does not print it.
     */
    @Test
    void loginAndPauseLinesAreIdentical() throws Exception {
        PgCluster pg = PgCluster.shared();
        String users = Userlist.md5Entry("postgres", "pw") + Userlist.md5Entry("alice", "secret");
        Map<String, java.util.List<String>> seen = new LinkedHashMap<>();
        onBoth("postgres = host=127.0.0.1 port=" + pg.port(), "auth_type = md5\nadmin_users = postgres", users, p -> {
            psql(p, "nosuchdb", "postgres", "pw", "select 1");
            psql(p, "postgres", "bob", "x", "select 1");
            psql(p, "postgres", "alice", "wrong", "select 1");
            psql(p, "postgres", "postgres", "pw", "select 1");
            psql(p, "pgbouncer", "postgres", "pw", "PAUSE postgres");
            psql(p, "pgbouncer", "postgres", "pw", "RESUME postgres");
            psql(p, "postgres", "postgres", "pw", "select 1");
            psql(p, "pgbouncer", "postgres", "pw", "KILL postgres");
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("database removed"), p.name() + " logs KILL");
            seen.put(p.name().startsWith("Sluice") ? "Sluice" : "PgBouncer", p.log().lines()
                    .filter(l -> l.matches(".*(kernel file descriptor limit|listening on 127|login attempt|login failed|no such user|"
                            + "closing because: (password authentication failed|pause mode|database removed)).*"))
                    .filter(l -> !l.contains("pgbouncer/postgres"))
                    .map(l -> l.replaceAll("^.*? (LOG|WARNING) ", "").replaceAll("[CS]-0x[0-9a-f]+", "X")
                            .replaceAll(":[0-9]{2,5}", ":PORT").replaceAll("age=[0-9]+s", "age=Ns")
                            .replace(" replication=none", "")
                            // the JVM raises its soft limit to the hard one at start; PgBouncer does not
                            .replaceAll("limit: [0-9]+ \\(hard: [0-9]+\\)", "limit: N (hard: N)"))
                    .toList());
        });
        sameLines("log lines", seen,
                // max_client_conn + 10, + 20 (default_pool_size) x 3 users (postgres, alice, pgbouncer), + 2 (console)
                "kernel file descriptor limit: N (hard: N); max_client_conn: 100, max expected fd use: 172",
                "listening on 127.0.0.1:PORT",
                "X: (nodb)/postgres@127.0.0.1:PORT login attempt: db=nosuchdb user=postgres tls=no",
                "X: (nodb)/postgres@127.0.0.1:PORT login failed: db=nosuchdb user=postgres",
                "X: (nodb)/(nouser)@127.0.0.1:PORT no such user: bob",
                "X: (nodb)/bob@127.0.0.1:PORT login attempt: db=postgres user=bob tls=no",
                "X: (nodb)/bob@127.0.0.1:PORT closing because: password authentication failed (age=Ns)",
                "X: postgres/alice@127.0.0.1:PORT login attempt: db=postgres user=alice tls=no",
                "X: postgres/alice@127.0.0.1:PORT closing because: password authentication failed (age=Ns)",
                "X: postgres/postgres@127.0.0.1:PORT login attempt: db=postgres user=postgres tls=no",
                "X: postgres/postgres@127.0.0.1:PORT closing because: pause mode (age=Ns)",
                "X: postgres/postgres@127.0.0.1:PORT login attempt: db=postgres user=postgres tls=no",
                "X: postgres/postgres@127.0.0.1:PORT closing because: database removed (age=Ns)");
    }

    /** PgBouncer writes the reserve line under the oldest waiting client; Sluice wrote "db/user:" alone. */
    @Test
    void takingFromTheReserveNamesTheClientThatWaited() throws Exception {
        PgCluster pg = PgCluster.shared();
        Map<String, List<String>> seen = new LinkedHashMap<>();
        onBoth("rp = host=127.0.0.1 port=" + pg.port() + " dbname=postgres", "auth_type = trust\npool_mode = transaction\n"
                + "default_pool_size = 1\nreserve_pool_size = 1\nreserve_pool_timeout = 0.5", USERS, p -> {
            try (RawClient holder = new RawClient(p.port()); RawClient waiter = new RawClient(p.port())) {
                for (RawClient c : List.of(holder, waiter)) {
                    c.send(RawClient.startup(Map.of("user", "postgres", "database", "rp")));
                    assertThat(c.readUntilReadyOrError()).as(p.name()).isNull();
                }
                assertThat(holder.queryOne("begin")).as("the one server held").isNull();
                assertThat(waiter.queryOne("select 2")).as(p.name() + ": served from the reserve").isEqualTo("2");
                String port = ":" + waiter.socket.getLocalPort() + " ";
                keep(seen, p, l -> l.contains("reserve_pool") && l.contains(port));
            }
        });
        sameLines("the reserve's line", seen, "WARNING X: rp/postgres@127.0.0.1:PORT taking connection from reserve_pool");
    }

    /** A log line without time and pid, socket ids as X, ports, ages, and 1.25's " replication=none". */
    private static String normal(String line) {
        return line.replaceAll("^.*? (LOG|WARNING|ERROR) ", "$1 ").replaceAll("[CS]-0x[0-9a-f]+", "X")
                .replaceAll(":[0-9]{2,5}", ":PORT").replaceAll("age=[0-9]+s", "age=Ns").replace(" replication=none", "");
    }

    /** Prints what each pooler logged under {@code label}; Sluice must log {@code expected}, PgBouncer (when it ran) the same. */
    static void sameLines(String label, Map<String, List<String>> seen, String... expected) {
        System.out.println(label + ": " + seen);
        assertThat(seen.get("Sluice")).containsExactly(expected);
        if (seen.containsKey("PgBouncer")) {
            assertThat(seen.get("Sluice")).as("Sluice as PgBouncer").isEqualTo(seen.get("PgBouncer"));
        }
    }

    private static void psql(Pooler p, String db, String user, String password, String sql) {
        io.sluice.testkit.ProcessRunner.psql("127.0.0.1", p.port(), db, user, password, sql);
    }

    private static String line(String log, String part) {
        return log.lines().filter(l -> l.contains(part)).findFirst().orElse("(none)");
    }
}
