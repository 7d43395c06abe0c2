package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.SluiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client that does not speak the protocol's first steps gets, side by side with
 * PgBouncer 1.18 (whose get_header and handle_client_startup 1.25 keeps): a message with a type
 * byte where the startup packet belongs, a password before any startup packet, an HTTP request on
 * the port, a query while the password is awaited. Each case gets the same answer (an error in
 * PgBouncer's words, or a close without one) and the same "closing because" log line.
 */
class StartupGarbageIT {
    static SluiceProcess sluice;
    static PgBouncerProcess pgbouncer;

    /** A scenario, the answer expected (messages received, then "closed"), and the close reason logged. */
    record Case(String name, byte[] bytes, boolean startFirst, List<String> answer, String reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        byte[] query = RawClient.query("select 1");
        byte[] password = ByteBuffer.allocate(12).put((byte) 'p').putInt(11).put("secret\0".getBytes(StandardCharsets.US_ASCII)).array();
        byte[] http = "GET / HTTP/1.1\r\nHost: db\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        String partial = "client sent partial pkt in startup phase";
        return Stream.of(
                new Case("a query before the startup packet", query, false, List.of("closed"), "bad packet"),
                new Case("a password before the startup packet", password, false,
                        List.of("FATAL 08P01 client password pkt before startup packet", "closed"),
                        "client password pkt before startup packet"),
                new Case("an HTTP request", http, false, List.of("FATAL 08P01 " + partial, "closed"), partial),
                new Case("a query while the password is awaited", query, true, List.of("R", "closed"), "bad packet"),
                new Case("a startup header with length 4", ByteBuffer.allocate(8).putInt(4).putInt(196608).array(), false,
                        List.of("FATAL 08P01 bad packet header: '0000000400030000'", "closed"),
                        "bad packet header: '0000000400030000'"));
    }

    @BeforeAll
    static void start() {
        PgCluster pg = PgCluster.shared();
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + pg.port() + "\n"
                + "[pgbouncer]\nauth_type = md5\npool_mode = transaction\n";
        String users = "\"postgres\" \"not-sent-by-this-test\"\n";
        sluice = new SluiceProcess(Path.of("target", "sluice.jar")).ini(ini).userlist(users).start();
        if (PgBouncerProcess.available()) {
            pgbouncer = PgBouncerProcess.start(ini, users);
        }
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
        if (pgbouncer != null) {
            pgbouncer.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answeredAndLoggedAsByPgBouncer(Case c) throws Exception {
        int sluiceLog = sluice.output().length();
        List<String> answer = play(sluice.port(), c);
        System.out.println(c.name() + ": sluice " + answer);
        assertThat(answer).isEqualTo(c.answer());
        Await.until(Duration.ofSeconds(10), () -> sluice.output().substring(sluiceLog).contains("closing because: " + c.reason() + " (age="),
                "Sluice logs closing because: " + c.reason());
        boolean warned = c.answer().stream().anyMatch(a -> a.startsWith("FATAL"));
        assertThat(sluice.output().substring(sluiceLog).contains("pooler error: " + c.reason()))
                .as("a pooler error is logged only when the client was told").isEqualTo(warned);
        if (pgbouncer != null) {
            int pgbLog = pgbouncer.logText().length();
            List<String> theirs = play(pgbouncer.port(), c);
            System.out.println(c.name() + ": pgbouncer " + PgBouncerProcess.version() + " " + theirs);
            assertThat(answer).as("same answer as PgBouncer").isEqualTo(theirs);
            Await.until(Duration.ofSeconds(10), () -> pgbouncer.logText().substring(pgbLog).contains("closing because: " + c.reason() + " (age="),
                    "PgBouncer logs closing because: " + c.reason());
            assertThat(pgbouncer.logText().substring(pgbLog).contains("pooler error: " + c.reason())).isEqualTo(warned);
        }
    }

    /** Sends the case's bytes (after a startup packet when it says so) and reads until the server closes. */
    private static List<String> play(int port, Case c) throws IOException {
        List<String> got = new ArrayList<>();
        try (RawClient raw = new RawClient(port)) {
            if (c.startFirst()) {
                raw.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
                got.add(describe(raw.readMessage()));
            }
            try {
                raw.send(c.bytes());
                while (true) {
                    got.add(describe(raw.readMessage()));
                }
            } catch (EOFException | SocketException e) {
                got.add("closed");
            }
        }
        return got;
    }

    private static String describe(RawClient.Message m) {
        if (m.type() != 'E') {
            return String.valueOf(m.type());
        }
        Map<Character, String> f = RawClient.fields(m.body());
        return f.get('S') + " " + f.get('C') + " " + f.get('M');
    }
}
