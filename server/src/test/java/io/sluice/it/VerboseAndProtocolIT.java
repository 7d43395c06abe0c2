package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ProcessRunner;
import io.sluice.testkit.SluiceProcess;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15 item 10: {@code -v}/{@code verbose} adds PgBouncer's DEBUG and NOISE lines; a 3.x
 * startup packet newer than 3.0 is negotiated down as PostgreSQL 15 does; a client killed with
 * SIGKILL is an "unexpected eof", not a "close request".
 */
class VerboseAndProtocolIT {
    private static final Path JAR = Path.of("target", "sluice.jar");
    private static final String USERS = "\"postgres\" \"\"\n";
    /** Lines PgBouncer 1.18 prints with verbose = 1 for a psql login and one query. */
    private static final List<String> DEBUG_LINES = List.of("DEBUG C-0x", " P: got connection: 127.0.0.1:",
            " got var: user=postgres", " got var: database=postgres", " using application_name: psql",
            " launching new connection to server", " S: connect ok", " S: param: server_version = ",
            " server login ok, start accepting queries", " logged in", " query time: ", " transaction time: ");

    private static String ini(String extra) {
        return "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\npool_mode = transaction\n" + extra + "\n";
    }

    private static void psqlSelect(int port) {
        // sslmode=prefer: psql asks for SSL first, which gives the NOISE lines something to say
        ProcessRunner.psqlCommand("127.0.0.1", port, "postgres", "postgres", null, "select 1")
                .env("PGSSLMODE", "prefer").run().requireSuccess();
    }

    @Test
    void minusVMinusVAddsPgBouncersDebugAndNoiseLines() {
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").args("-v", "-v").ini(ini(""))
                .userlist(USERS).start()) {
            psqlSelect(sluice.port());
            Await.until(Duration.ofSeconds(10), () -> sluice.output().contains(" transaction time: "),
                    "the query's DEBUG lines");
            for (String line : DEBUG_LINES) {
                assertThat(sluice.output()).as("Sluice -v -v").contains(line);
            }
            // psql over TCP asks for SSL first: NOISE, which needs the second -v
            assertThat(sluice.output()).contains("NOISE C-0x").contains(" C: req SSL").contains(" P: nak");
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start(ini("verbose = 2"), USERS)) {
                psqlSelect(pgb.port());
                Await.until(Duration.ofSeconds(10), () -> pgb.logText().contains(" transaction time: "),
                        "PgBouncer's DEBUG lines");
                for (String line : DEBUG_LINES) {
                    assertThat(pgb.logText()).as("PgBouncer " + PgBouncerProcess.version()).contains(line);
                }
            }
        }
    }

    @Test
    void theVerboseKeyTurnsDebugOnAndWithoutItThereIsNone() {
        try (SluiceProcess quiet = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini("")).userlist(USERS).start()) {
            psqlSelect(quiet.port());
            Await.until(Duration.ofSeconds(10), () -> quiet.output().contains("closing because: client close request"),
                    "the client's departure");
            assertThat(quiet.output()).doesNotContain("DEBUG").doesNotContain("NOISE");
        }
        try (SluiceProcess one = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini("verbose = 1")).userlist(USERS)
                .start()) {
            psqlSelect(one.port());
            Await.until(Duration.ofSeconds(10), () -> one.output().contains(" transaction time: "), "DEBUG lines");
            assertThat(one.output()).contains(" got var: user=postgres").doesNotContain("NOISE");
        }
    }

    private static byte[] startup(int version, Map<String, String> params) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        params.forEach((k, v) -> body.writeBytes((k + "\0" + v + "\0").getBytes(StandardCharsets.UTF_8)));
        body.write(0);
        return ByteBuffer.allocate(8 + body.size()).putInt(8 + body.size()).putInt(version).put(body.toByteArray())
                .array();
    }

    /** The first message of the answer and whether the login then completed. */
    private record Answer(RawClient.Message first, boolean loggedIn) {
    }

    private static Answer login(int port, int version, Map<String, String> params) throws Exception {
        try (RawClient c = new RawClient(port)) {
            c.send(startup(version, params));
            RawClient.Message first = c.readMessage();
            if (first.type() == 'E') {
                return new Answer(first, false);
            }
            return new Answer(first, c.readUntilReadyOrError() == null && c.queryOne("select 7").equals("7"));
        }
    }

    @Test
    void aNewerMinorVersionIsNegotiatedDownAsPostgreSqlDoes() throws Exception {
        int pgPort = PgCluster.shared().port();
        Map<String, String> user = new java.util.LinkedHashMap<>(Map.of("user", "postgres", "database", "postgres"));
        Map<String, String> extensions = new java.util.LinkedHashMap<>(user);
        extensions.put("_pq_.compression", "on");
        extensions.put("_pq_.other", "1");
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini("")).userlist(USERS).start()) {
            for (int version : new int[] {0x30063, 0x30002}) {
                for (Map<String, String> params : List.of(user, extensions)) {
                    Answer pg = login(pgPort, version, params);
                    Answer ours = login(sluice.port(), version, params);
                    assertThat(pg.first().type()).isEqualTo('v');
                    assertThat(ours.first().type()).as("NegotiateProtocolVersion").isEqualTo('v');
                    assertThat(ours.first().body()).as("the same bytes as PostgreSQL's").isEqualTo(pg.first().body());
                    assertThat(ours.loggedIn()).as("the login goes on").isTrue();
                }
            }
            // 3.0 asking for protocol extensions: negotiated too, naming them
            Answer ours = login(sluice.port(), 0x30000, extensions);
            assertThat(ours.first().type()).isEqualTo('v');
            assertThat(ours.first().body()).isEqualTo(login(pgPort, 0x30000, extensions).first().body());
            assertThat(new String(ours.first().body(), StandardCharsets.UTF_8))
                    .contains("_pq_.compression\0_pq_.other\0");
            assertThat(ours.loggedIn()).isTrue();
            // another major version: PgBouncer's refusal, naming the header bytes
            Answer four = login(sluice.port(), 0x40000, user);
            assertThat(four.first().type()).isEqualTo('E');
            Map<Character, String> e = RawClient.fields(four.first().body());
            assertThat(e).containsEntry('C', "08P01").containsEntry('M', "bad packet header: '0000002900040000'");
        }
        if (PgBouncerProcess.available()) {
            try (PgBouncerProcess pgb = PgBouncerProcess.start(ini(""), USERS)) {
                Answer old = login(pgb.port(), 0x30063, user);
                System.out.println("PgBouncer " + PgBouncerProcess.version() + " answers 3.99 with "
                        + old.first().type() + " " + RawClient.fields(old.first().body()));
                assertThat(RawClient.fields(login(pgb.port(), 0x40000, user).first().body()))
                        .containsEntry('M', "bad packet header: '0000002900040000'");
            }
        }
    }

    @Test
    void aSigkilledClientIsAnUnexpectedEof() throws Exception {
        try (SluiceProcess sluice = new SluiceProcess(JAR).jvmArgs("-Xmx128m").ini(ini("")).userlist(USERS).start()) {
            // busy in a query, then idle (psql waiting on its open stdin): either way the socket just ends
            List<List<String>> commands = List.of(List.of("-c", "select pg_sleep(60)"), List.of());
            for (int i = 0; i < commands.size(); i++) {
                List<String> cmd = new java.util.ArrayList<>(List.of("psql", "-X", "-h", "127.0.0.1", "-p",
                        String.valueOf(sluice.port()), "-U", "postgres", "-d", "postgres"));
                cmd.addAll(commands.get(i));
                Process psql = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                int logins = i + 1;
                Await.until(Duration.ofSeconds(15),
                        () -> count(sluice.output(), "login attempt: db=postgres") == logins,
                        "psql logged in");
                if (i == 0) {
                    Await.until(Duration.ofSeconds(10), () -> !PgCluster.shared().query("select count(*) from"
                            + " pg_stat_activity where query = 'select pg_sleep(60)'").get(0).get(0).equals("0"),
                            "the query reached PostgreSQL");
                }
                psql.destroyForcibly(); // SIGKILL
                psql.waitFor();
                Await.until(Duration.ofSeconds(10),
                        () -> count(sluice.output(), "closing because: client unexpected eof") == logins,
                        "the departure logged");
            }
            assertThat(sluice.output()).doesNotContain("client close request");
        } finally {
            // the backend would sleep on; nothing else should find it in pg_stat_activity
            PgCluster.shared().query("select pg_cancel_backend(pid) from pg_stat_activity"
                    + " where query = 'select pg_sleep(60)'");
        }
    }

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
