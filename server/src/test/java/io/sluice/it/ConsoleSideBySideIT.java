package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.ProcessRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Console answers compared with Debian's PgBouncer (when installed), the same commands on both.
 * SET: a key read only at start is answered with success and left as it was (PgBouncer's config
 * parser ignores it), an unknown key or a bad value is "SET failed", a run-time key changes.
 * Row order: pools, the console's included, in database then user order.
 */
class ConsoleSideBySideIT {
    private static final String INI = "[databases]\nplaceholder = host=127.0.0.1 port=1\n[pgbouncer]\n"
            + "auth_type = trust\nadmin_users = postgres\n";
    private static final String USERS = "\"postgres\" \"\"\n";
    private static final List<String> COMMANDS = List.of("SET listen_port = 1", "SHOW CONFIG listen_port",
            "SET unix_socket_dir = '/nonexistent'", "SET nonsense = 1", "SET default_pool_size = abc",
            "SET default_pool_size = 9", "SHOW CONFIG default_pool_size");

    @Test
    void setAnswersAsPgBouncerDoes() throws Exception {
        Pooler.sameAnswers("console SET", INI, USERS, p -> COMMANDS.stream().map(c -> answer(c, p.port())).toList(),
                "SET listen_port=1", "listen_port=<port>", "SET unix_socket_dir=/nonexistent", "ERROR:  SET failed",
                "ERROR:  SET failed", "SET default_pool_size=9", "default_pool_size=9");
    }

    @Test
    void poolsAndClientsAreListedInDatabaseOrderWithTheConsoleAmongThem() throws Exception {
        String pgPort = String.valueOf(io.sluice.testkit.PgCluster.shared().port());
        String ini = "[databases]\nzulu = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n"
                + "alpha = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n[pgbouncer]\n"
                + "auth_type = trust\nadmin_users = postgres\npool_mode = session\n";
        Pooler.sameAnswers("console row order", ini, USERS, p -> {
            try (var zulu = p.connect("zulu"); var alpha = p.connect("alpha")) {
                // pools created zulu first: the listing must not follow creation order
                Queries.run(zulu, "select 1");
                Queries.run(alpha, "select 1");
                return List.of("pools: " + firstColumn(p.port(), "SHOW POOLS"),
                        "clients: " + firstColumn(p.port(), "SHOW CLIENTS"));
            }
        }, "pools: [alpha, pgbouncer, zulu]", "clients: [alpha, pgbouncer, zulu]");
    }

    /**
     * PAUSE without a database pauses the pooler, PAUSE db marks the database (SHOW DATABASES'
     * paused column shows only that mark, PgBouncer's db_paused), and each RESUME undoes only
     * its own kind. KILL without a database (1.25, not in 1.18) is checked on Sluice alone.
     */
    @Test
    void pauseAndResumeKeepThePoolersAndTheDatabasesMarksApart() throws Exception {
        List<String> steps = List.of("PAUSE", "paused?", "RESUME", "PAUSE placeholder", "PAUSE", "paused?",
                "RESUME placeholder", "RESUME placeholder", "RESUME", "PAUSE placeholder", "RESUME", "paused?",
                "RESUME placeholder", "paused?");
        Pooler.sameAnswers("PAUSE and RESUME", INI, USERS, p -> steps.stream()
                .map(c -> c.equals("paused?") ? "paused=" + pausedColumn(p.port()) : c + ": " + tagOrError(c, p.port()))
                .toList(), "PAUSE: PAUSE", "paused=0", "RESUME: RESUME",
                "PAUSE placeholder: PAUSE", "PAUSE: PAUSE", "paused=1", "RESUME placeholder: RESUME",
                "RESUME placeholder: ERROR:  database placeholder is not paused", "RESUME: RESUME",
                "PAUSE placeholder: PAUSE", "RESUME: ERROR:  pooler is not paused/suspended", "paused=1",
                "RESUME placeholder: RESUME", "paused=0");
    }

    /** PgBouncer 1.25's KILL without a database: each database with a pool is marked paused, not the pooler. */
    @Test
    void killWithoutADatabasePausesEachDatabaseThatHasAPool() throws Exception {
        String pgPort = String.valueOf(io.sluice.testkit.PgCluster.shared().port());
        String ini = "[databases]\nused = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n"
                + "unused = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n[pgbouncer]\n"
                + "auth_type = trust\nadmin_users = postgres\n";
        try (Pooler p = Pooler.sluice(ini, USERS)) {
            try (var c = p.connect("used")) {
                assertThat(Queries.run(c, "select 1")).isEqualTo("1");
            }
            assertThat(tagOrError("KILL", p.port())).isEqualTo("KILL");
            assertThat(pausedColumn(p.port(), "used")).isEqualTo("1");
            assertThat(pausedColumn(p.port(), "unused")).isEqualTo("0");
            assertThat(tagOrError("RESUME", p.port())).isEqualTo("ERROR:  pooler is not paused/suspended");
            assertThat(tagOrError("RESUME used", p.port())).isEqualTo("RESUME");
        }
    }

    /**
     * KILL drops a database's pools with what they learned from their servers, so a new login
     * there waits (in cl_waiting) until RESUME, where after PAUSE it would be greeted at once.
     */
    @Test
    void aLoginToAKilledDatabaseWaitsForResume() throws Exception {
        String pgPort = String.valueOf(io.sluice.testkit.PgCluster.shared().port());
        String ini = "[databases]\nused = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n[pgbouncer]\n"
                // PgBouncer 1.18 connects for the held login only server_login_retry after the KILL
                + "auth_type = trust\nadmin_users = postgres\npool_mode = transaction\nserver_login_retry = 1\n";
        Pooler.sameAnswers("login to a killed database", ini, USERS, p -> {
            List<String> out = new java.util.ArrayList<>();
            try (var c = p.connect("used")) {
                out.add("before: " + Queries.run(c, "select 1"));
            }
            out.add("KILL used: " + tagOrError("KILL used", p.port()));
            try (RawClient login = new RawClient(p.port())) {
                login.send(RawClient.startup(Map.of("user", "postgres", "database", "used")));
                io.sluice.testkit.Await.until(java.time.Duration.ofSeconds(10),
                        () -> "1".equals(column(p.port(), "SHOW POOLS", "used", "cl_waiting")), p + " holding the login");
                out.add("login waiting: cl_waiting=1");
                out.add("RESUME used: " + tagOrError("RESUME used", p.port()));
                Map<Character, String> error = login.readUntilReadyOrError();
                out.add("then: " + (error == null ? "logged in" : error.get('M')));
            }
            return out;
        }, "before: 1", "KILL used: KILL", "login waiting: cl_waiting=1", "RESUME used: RESUME", "then: logged in");
    }

    /** SHOW SOCKETS' state is the list a socket is on (cl_active, sv_idle, ...), not SHOW CLIENTS' words. */
    @Test
    void showSocketsNamesTheListsEachSocketIsOn() throws Exception {
        String pgPort = String.valueOf(io.sluice.testkit.PgCluster.shared().port());
        String ini = "[databases]\nused = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n[pgbouncer]\n"
                + "auth_type = trust\nadmin_users = postgres\npool_mode = transaction\n";
        Pooler.sameAnswers("SHOW SOCKETS states", ini, USERS, p -> {
            try (var c = p.connect("used")) {
                Queries.run(c, "select 1");
                ProcessResult r = psql(p.port(), "postgres", "pgbouncer", "-c", "SHOW SOCKETS");
                List<String> lines = r.stdout().lines().filter(l -> l.contains("|")).toList();
                int type = List.of(lines.get(0).split("\\|", -1)).indexOf("type");
                int state = List.of(lines.get(0).split("\\|", -1)).indexOf("state");
                return lines.stream().skip(1).map(l -> l.split("\\|", -1)).map(f -> f[type] + " " + f[state])
                        .sorted().toList();
            }
        }, "C cl_active", "C cl_active", "S sv_idle");
    }

    /**
     * SHOW STATS counts what servers sent byte for byte as PgBouncer does: the replies to
     * the pooler's own queries (the application_name SET for the client, the DISCARD ALL reset
     * of session pooling) are server bytes too.
     */
    @Test
    void serverBytesCountTheRepliesToThePoolersOwnQueries() throws Exception {
        String pgPort = String.valueOf(io.sluice.testkit.PgCluster.shared().port());
        String ini = "[databases]\nt = host=127.0.0.1 port=" + pgPort + " dbname=postgres\n[pgbouncer]\n"
                + "auth_type = trust\nadmin_users = postgres\npool_mode = session\nstats_period = 1\n";
        Pooler.sameAnswers("server bytes", ini, USERS, p -> {
            for (int i = 0; i < 3; i++) {
                psql(p.port(), "postgres", "t", "-t", "-c", "select 1").requireSuccess();
            }
            io.sluice.testkit.Await.until(java.time.Duration.ofSeconds(10),
                    () -> "3".equals(column(p.port(), "SHOW STATS", "t", "total_xact_count")), p + " counting");
            return List.of("xacts " + column(p.port(), "SHOW STATS", "t", "total_xact_count"),
                    "received " + column(p.port(), "SHOW STATS", "t", "total_received"),
                    "sent " + column(p.port(), "SHOW STATS", "t", "total_sent"));
        }, "xacts 3", "received 42", "sent 462");
    }

    /**
     * A unix-socket client is named by its process in log lines ({@code unix(<pid>)}) and shows
     * that pid in SHOW CLIENTS remote_pid, as PgBouncer reads it from SO_PEERCRED.
     */
    @Test
    void aUnixSocketClientIsNamedByItsProcess() throws Exception {
        Pooler.sameAnswers("unix-socket client", INI, USERS, p -> {
            ProcessResult r = psqlAt(p.dir().toString(), p.port(), "postgres", "pgbouncer", "-c", "SHOW CLIENTS")
                    .requireSuccess();
            List<String> lines = r.stdout().lines().filter(l -> l.contains("|")).toList();
            List<String> header = List.of(lines.get(0).split("\\|", -1));
            String[] own = lines.stream().skip(1).map(l -> l.split("\\|", -1))
                    .filter(f -> f[header.indexOf("addr")].equals("unix")).findFirst().orElseThrow();
            String pid = own[header.indexOf("remote_pid")];
            String login = p.log().lines().filter(l -> l.contains("login attempt: db=pgbouncer")).findFirst().orElse("none")
                    .replaceAll("^.*? LOG C-0x[0-9a-f]+: ", "").replace(" replication=none", "");
            return List.of("remote_pid is psql's: " + (Long.parseLong(pid) > 0),
                    login.replace("unix(" + pid + ")", "unix(PID)").replace(":" + p.port() + " ", ":PORT "));
        }, "remote_pid is psql's: true", "pgbouncer/postgres@unix(PID):PORT login attempt: db=pgbouncer user=postgres tls=no");
    }

    /**
     * Every console error is also a "pooler error" line for its client (PgBouncer's admin_error);
     * a user that is neither admin nor stats user is refused after its login attempt is logged.
     */
    @Test
    void consoleErrorsAreLoggedAsPoolerErrorsOfTheirClient() throws Exception {
        String ini = INI + "stats_users = watcher\n";
        Pooler.sameAnswers("console errors in the log", ini, USERS + "\"watcher\" \"\"\n\"alice\" \"\"\n", p -> {
            tagOrError("FOO", p.port());
            psql(p.port(), "watcher", "pgbouncer", "-c", "PAUSE");
            psql(p.port(), "alice", "pgbouncer", "-c", "SHOW VERSION");
            io.sluice.testkit.Await.until(java.time.Duration.ofSeconds(10),
                    () -> p.log().contains("pooler error: not allowed"), p + " logging the refusals");
            return p.log().lines().filter(l -> l.contains("pooler error") || l.contains("pgbouncer/alice"))
                    .map(l -> l.replaceAll("^.* (WARNING|LOG|ERROR) ", "$1 ").replaceAll("C-0x[0-9a-f]+", "X")
                            .replaceAll(":[0-9]{2,5}", ":PORT").replace(" replication=none", ""))
                    .toList();
        }, "WARNING X: pgbouncer/postgres@127.0.0.1:PORT pooler error: invalid command 'FOO', use SHOW HELP;",
                "WARNING X: pgbouncer/watcher@127.0.0.1:PORT pooler error: admin access needed",
                "LOG X: pgbouncer/alice@127.0.0.1:PORT login attempt: db=pgbouncer user=alice tls=no",
                "LOG X: pgbouncer/alice@127.0.0.1:PORT closing because: not allowed (age=0s)",
                "WARNING X: pgbouncer/alice@127.0.0.1:PORT pooler error: not allowed");
    }

    /**
     * The console speaks the simple query protocol only. A Parse, Bind or Execute gets PgBouncer's
     * admin_error (an ERROR and ReadyForQuery), then the FATAL "bad packet" and the close; another
     * message type is named by its code. Client libraries show the first ERROR's text to the user.
     * A type that no client may send is refused as on any connection: FATAL "unknown pkt".
     */
    @Test
    void extendedProtocolOnTheConsoleGetsAnErrorThenBadPacket() throws Exception {
        Pooler.sameAnswers("console extended protocol", INI, USERS, p -> {
            List<String> out = new java.util.ArrayList<>();
            for (char type : new char[] {'P', 'S', (char) 200}) {
                try (RawClient c = new RawClient(p.port())) {
                    c.send(RawClient.startup(Map.of("user", "postgres", "database", "pgbouncer")));
                    assertThat(c.readUntilReadyOrError()).isNull();
                    // a Parse of an unnamed "SHOW VERSION" (no parameter types), or a bare Sync
                    c.send(Hostile.msg(type, type == 'P' ? "\0SHOW VERSION\0\0\0".getBytes(java.nio.charset.StandardCharsets.UTF_8)
                            : new byte[0]));
                    c.describeUntilClosed(4).forEach(m -> out.add((int) type + ": " + m));
                }
            }
            return out;
        }, "80: E ERROR 08P01 extended query protocol not supported by admin console", "80: Z", "80: E FATAL 08P01 bad packet",
                "80: EOF", "83: E ERROR 08P01 unsupported packet type for admin console: 83", "83: Z",
                "83: E FATAL 08P01 bad packet", "83: EOF",
                // a type no client may send is refused before the console sees it
                "200: E FATAL 08P01 unknown pkt", "200: EOF");
    }

    /** disable_pqexec applies to the console too: PgBouncer judges the message type before the console sees it. */
    @Test
    void disablePqexecRefusesTheConsolesSimpleQueriesToo() throws Exception {
        Pooler.sameAnswers("console under disable_pqexec", INI + "disable_pqexec = 1\n", USERS, p -> {
            ProcessResult r = psql(p.port(), "postgres", "pgbouncer", "-c", "SHOW VERSION");
            // PgBouncer's ERROR line comes before the "closing because" one, which the client's FATAL follows
            Await.until(Duration.ofSeconds(10), () -> p.log().contains("closing because: PQexec disallowed"), p + " logs the close");
            return List.of("exit " + r.exitCode(), r.stderr().lines().filter(l -> l.contains("FATAL")).findFirst()
                    .map(l -> l.replaceAll("^.*FATAL", "FATAL")).orElse(r.describe()),
                    p.log().lines().filter(l -> l.contains(" ERROR ") || l.contains("PQexec"))
                            .map(l -> l.replaceAll("^.*? (ERROR|LOG|WARNING) C-0x[0-9a-f]+: (.*?)@.*? ", "$1 $2 ")
                                    .replaceAll("age=[0-9]+s", "age=Ns")).toList().toString());
        }, "exit 2", "FATAL:  PQexec disallowed", "[ERROR pgbouncer/postgres client used 'Q' packet type, "
                + "LOG pgbouncer/postgres closing because: PQexec disallowed (age=Ns), "
                + "WARNING pgbouncer/postgres pooler error: PQexec disallowed]");
    }

    private static String pausedColumn(int port) {
        return pausedColumn(port, "placeholder");
    }

    /** SHOW DATABASES' paused column of {@code db}. */
    private static String pausedColumn(int port, String db) {
        return column(port, "SHOW DATABASES", db, "paused");
    }

    /** A console listing's {@code name} column in the row of {@code db}, found by the header (versions differ in columns). */
    private static String column(int port, String show, String db, String name) {
        ProcessResult r = psql(port, "postgres", "pgbouncer", "-c", show);
        List<String> lines = r.stdout().lines().toList();
        int column = List.of(lines.get(0).split("\\|", -1)).indexOf(name);
        return lines.stream().filter(l -> l.startsWith(db + "|")).findFirst()
                .map(l -> l.split("\\|", -1)[column]).orElse(r.describe());
    }

    /** psql run as {@code user} on {@code db} through the pooler's TCP port, with {@code args} after the connection flags. */
    private static ProcessResult psql(int port, String user, String db, String... args) {
        return psqlAt("127.0.0.1", port, user, db, args);
    }

    /** {@link #psql} on {@code host}: an address, or a unix-socket directory. */
    private static ProcessResult psqlAt(String host, int port, String user, String db, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("psql", "-X", "-A", "-h", host, "-p", String.valueOf(port),
                "-U", user, "-d", db));
        command.addAll(List.of(args));
        return ProcessRunner.of(command).env("PGOPTIONS", null).run();
    }

    /** A console command's tag, or its error line. */
    private static String tagOrError(String command, int port) {
        ProcessResult r = psql(port, "postgres", "pgbouncer", "-c", command);
        return r.stderr().lines().filter(l -> l.startsWith("ERROR")).findFirst()
                .orElse(r.stdout().strip());
    }

    /** The database column of every row (the third column for SHOW CLIENTS, the first for SHOW POOLS). */
    private static List<String> firstColumn(int port, String show) {
        ProcessResult r = psql(port, "postgres", "pgbouncer", "-t", "-c", show);
        int column = show.endsWith("CLIENTS") ? 2 : 0;
        return r.stdout().lines().filter(l -> !l.isBlank()).map(l -> l.split("\\|", -1)[column]).toList();
    }

    /** The command tag or error of a SET; for SHOW CONFIG key, the key's value (the listen port masked). */
    private static String answer(String command, int port) {
        boolean show = command.startsWith("SHOW CONFIG ");
        String key = show ? command.substring("SHOW CONFIG ".length()) : null;
        ProcessResult r = psql(port, "postgres", "pgbouncer", "-t", "-c", show ? "SHOW CONFIG" : command, "-c", "SHOW VERSION");
        if (show) {
            return r.stdout().lines().filter(l -> l.startsWith(key + "|")).findFirst()
                    .map(l -> key + "=" + l.split("\\|")[1].replace(String.valueOf(port), "<port>")).orElse(r.stdout());
        }
        return r.stderr().lines().filter(l -> l.startsWith("ERROR")).findFirst()
                .orElse(r.stdout().lines().filter(l -> l.startsWith("SET")).findFirst().orElse(r.describe()));
    }
}
