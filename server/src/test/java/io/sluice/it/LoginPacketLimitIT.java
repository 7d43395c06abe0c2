package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.SluiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.sluice.it.RssSampler.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 15 (memory exhaustion before login): an unauthenticated client that announces a huge
 * password message and streams it is refused on the header, in PgBouncer's words, and closed
 * long before the 200 MiB it claims has been taken in; PgBouncer 1.18 does the same. Sluice
 * runs as its own process here so its log and resident memory are its own.
 *
 * <p>Also what a client that does not speak the protocol's first steps gets, side by side with
 * PgBouncer 1.18 (whose get_header and handle_client_startup 1.25 keeps): a message with a type
 * byte where the startup packet belongs, a password before any startup packet, an HTTP request on
 * the port, a query while the password is awaited. Each case gets the same answer (an error in
 * PgBouncer's words, or a close without one) and the same "closing because" log line.
 */
class LoginPacketLimitIT {
    private static final int CLAIMED = 200 << 20;
    private static final String PARTIAL = "client sent partial pkt in startup phase";

    static SluiceProcess sluice;
    static PgBouncerProcess pgbouncer;

    @BeforeAll
    static void start() {
        PgCluster pg = PgCluster.shared();
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + pg.port() + "\n"
                + "[pgbouncer]\nauth_type = md5\npool_mode = transaction\n";
        String users = "\"postgres\" \"not-sent-by-this-test\"\n";
        sluice = new SluiceProcess(Path.of("target", "sluice.jar")).jvmArgs(RssSampler.CAPPED_JVM)
                .ini(ini).userlist(users).start();
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

    /** What one hostile login got: the error fields and how many bytes the socket took in. */
    record Outcome(Map<Character, String> error, boolean closed, long bytesTaken) {
    }

    @Test
    void hugePasswordMessageIsRefusedOnItsHeaderBySluiceAsByPgBouncer() throws Exception {
        Outcome s = pushHugePassword(sluice.port());
        System.out.println("sluice: " + s);
        assertRefused(s);
        Await.until(Duration.ofSeconds(10), () -> sluice.output().contains("pooler error: " + PARTIAL),
                "Sluice logs the refusal");
        if (pgbouncer != null) {
            Outcome p = pushHugePassword(pgbouncer.port());
            System.out.println("pgbouncer " + PgBouncerProcess.version() + ": " + p);
            assertRefused(p);
            assertThat(scm(s.error())).as("same severity, SQLSTATE and message as PgBouncer").isEqualTo(scm(p.error()));
            assertThat(pgbouncer.logText()).contains("pooler error: " + PARTIAL);
        }
    }

    /** Issue 15's memory bound for item 1: the peak (sampled every 50 ms) may exceed the settled level by 64 MiB. */
    @Test
    void fourClientsPushing200MiBEachLeaveSluicesMemoryFlat() throws Exception {
        RssSampler rss = new RssSampler(sluice.pid());
        long before = rss.settle();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Outcome>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                runs.add(pool.submit(() -> pushHugePassword(sluice.port())));
            }
            for (Future<Outcome> f : runs) {
                assertRefused(f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            rss.close();
        }
        System.out.printf("sluice RSS around 4 x 200 MiB hostile logins: %d MiB settled, peak %d MiB (+%d MiB)%n",
                before / MIB, rss.peak() / MIB, (rss.peak() - before) / MIB);
        assertThat(rss.peak() - before).as("RSS growth, bytes").isLessThanOrEqualTo(64 * MIB);
    }

    @Test
    void startupPacketBeyondPktBufAndOneWiderThan16BitsAreRefusedAsByPgBouncer() throws Exception {
        Map<String, Map<Character, String>> answers = new LinkedHashMap<>();
        // 5000 bytes: over pkt_buf (4096); 0x10010: a length PgBouncer's 16-bit field cannot carry
        for (int len : new int[] {5000, 0x10010}) {
            answers.put("sluice " + len, oversizedStartup(sluice.port(), len));
            if (pgbouncer != null) {
                answers.put("pgbouncer " + len, oversizedStartup(pgbouncer.port(), len));
            }
        }
        System.out.println("oversized startup packets: " + answers);
        assertThat(answers.get("sluice 5000")).containsEntry('C', "08P01").containsEntry('M', PARTIAL);
        assertThat(answers.get("sluice " + 0x10010)).containsEntry('M', "bad packet header: '0001001000030000'");
        if (pgbouncer != null) {
            assertThat(scm(answers.get("sluice 5000"))).isEqualTo(scm(answers.get("pgbouncer 5000")));
            assertThat(scm(answers.get("sluice " + 0x10010))).isEqualTo(scm(answers.get("pgbouncer " + 0x10010)));
        }
    }

    /**
     * Logs in as far as the password request, then announces a 200 MiB password message and
     * streams zeros behind it until the server closes (at most the claimed size).
     */
    static Outcome pushHugePassword(int port) throws Exception {
        try (RawClient c = new RawClient(port)) {
            c.send(RawClient.startup(Map.of("user", "postgres", "database", "postgres")));
            RawClient.Message auth = c.readMessage();
            assertThat(auth.type()).as("authentication request").isEqualTo('R');
            assertThat(ByteBuffer.wrap(auth.body()).getInt()).as("md5 password requested").isEqualTo(5);
            OutputStream out = c.socket.getOutputStream();
            ExecutorService writer = Executors.newSingleThreadExecutor();
            try {
                Future<Long> written = writer.submit(() -> {
                    byte[] chunk = new byte[64 << 10];
                    long n = 0;
                    try {
                        out.write(ByteBuffer.allocate(5).order(ByteOrder.BIG_ENDIAN).put((byte) 'p')
                                .putInt(CLAIMED + 4).array());
                        while (n < CLAIMED) {
                            out.write(chunk);
                            n += chunk.length;
                        }
                    } catch (IOException e) {
                        // the server closed on us: what it took in is what we managed to write
                    }
                    return n;
                });
                RawClient.Message m = c.readMessage();
                Map<Character, String> error = m.type() == 'E' ? RawClient.fields(m.body()) : Map.of('?', "" + m.type());
                boolean closed = c.closedByServer();
                return new Outcome(error, closed, written.get(60, TimeUnit.SECONDS));
            } finally {
                writer.shutdownNow();
            }
        }
    }

    static Map<Character, String> oversizedStartup(int port, int len) throws Exception {
        try (RawClient c = new RawClient(port)) {
            ByteBuffer p = ByteBuffer.allocate(Math.min(len, 8192));
            p.putInt(len).putInt(196608);
            while (p.hasRemaining()) {
                p.put((byte) 'x');
            }
            try {
                c.send(p.array());
            } catch (IOException e) {
                // a server that already refused may reset before the whole packet is out
            }
            RawClient.Message m = c.readMessage();
            assertThat(c.closedByServer()).isTrue();
            return m.type() == 'E' ? RawClient.fields(m.body()) : Map.of('?', "" + m.type());
        }
    }

    /** Severity, SQLSTATE and message: what PgBouncer sends (Sluice adds V, PostgreSQL's copy of S). */
    static Map<Character, String> scm(Map<Character, String> fields) {
        Map<Character, String> m = new LinkedHashMap<>(fields);
        m.keySet().retainAll(List.of('S', 'C', 'M'));
        return m;
    }

    private static void assertRefused(Outcome o) {
        assertThat(o.error()).containsEntry('S', "FATAL").containsEntry('C', "08P01").containsEntry('M', PARTIAL);
        assertThat(o.closed()).as("connection closed").isTrue();
        assertThat(o.bytesTaken()).as("bytes taken in of the claimed 200 MiB").isLessThan(32L << 20);
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
