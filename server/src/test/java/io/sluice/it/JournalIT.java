package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.DatagramInbox;
import io.sluice.testkit.PgBouncerProcess;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.SluiceProcess;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under systemd, stderr is journald's stream and {@code JOURNAL_STREAM} names it. Debian's
 * PgBouncer (built with systemd) then prints nothing there and hands each line to the journal
 * with its level, without time or pid; Sluice prints {@code <priority>message}, which journald
 * turns into the same entry. The test stands in for systemd: a shell sets JOURNAL_STREAM to the
 * file stderr goes to, and, for PgBouncer, a socket at journald's address catches its entries
 * (only where the test may create it and no journald owns it, i.e. CI's root).
 */
class JournalIT {
    private static final Path JOURNAL = Path.of("/run/systemd/journal/socket");
    private static final List<String> ON_JOURNAL_STREAM = List.of("sh", "-c",
            "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec \"$@\"", "sh");
    private static final String USERS = "\"postgres\" \"\"\n";

    @Test
    void eachLineReachesTheJournalWithItsLevelAndWithoutTimeOrPid() throws Exception {
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlog_stats = 0\n";
        List<String> sluice;
        try (SluiceProcess p = new SluiceProcess(Pooler.JAR).jvmArgs("-Xmx128m").launcher(ON_JOURNAL_STREAM.toArray(String[]::new))
                .ini(ini).userlist(USERS).start()) {
            sluice = entries(p.port(), () -> p.output().lines()
                    .filter(l -> l.matches("^<[0-7]>.*")).map(l -> l.charAt(1) + " " + l.substring(3)));
            assertThat(p.output().lines().filter(l -> l.matches("^\\d{4}-\\d\\d-\\d\\d .*")))
                    .as("no line in the usual shape, with time and pid").isEmpty();
        }
        System.out.println("journal entries, Sluice: " + sluice);
        assertThat(sluice).containsExactly(
                "6 listening on 127.0.0.1:PORT",
                "6 C-ID: (nodb)/postgres@127.0.0.1:PORT login attempt: db=nosuchdb user=postgres tls=no",
                "6 C-ID: (nodb)/postgres@127.0.0.1:PORT login failed: db=nosuchdb user=postgres",
                "6 C-ID: (nodb)/postgres@127.0.0.1:PORT closing because: no such database: nosuchdb (age=Ns)",
                "4 C-ID: (nodb)/postgres@127.0.0.1:PORT pooler error: no such database: nosuchdb");

        boolean ownsJournal = PgBouncerProcess.available() && Files.isWritable(Path.of("/run"))
                && !Files.exists(JOURNAL.getParent());
        if (!ownsJournal) {
            return; // journald's address is taken here (or cannot be made): Sluice's half stands alone
        }
        Path made = Files.exists(JOURNAL.getParent().getParent()) ? JOURNAL.getParent() : JOURNAL.getParent().getParent();
        Files.createDirectories(JOURNAL.getParent());
        try (DatagramInbox journald = DatagramInbox.bindPath(JOURNAL);
             PgBouncerProcess p = PgBouncerProcess.start(ini, USERS, ON_JOURNAL_STREAM)) {
            List<String> pgbouncer = entries(p.port(), () -> journald.received().stream().map(JournalIT::entry));
            System.out.println("journal entries, PgBouncer " + PgBouncerProcess.version() + ": " + pgbouncer);
            assertThat(p.logText()).as("PgBouncer prints nothing on the journal's stream").doesNotContain("listening on");
            assertThat(sluice).isEqualTo(pgbouncer);
        } finally {
            Files.deleteIfExists(JOURNAL.getParent()); // leave /run as it was
            Files.deleteIfExists(made);
        }
    }

    /** One refused login; then the entries about it and the listener, normalised, once all five are there. */
    private static List<String> entries(int port, Supplier<Stream<String>> lines) throws Exception {
        try (RawClient c = new RawClient(port)) {
            c.send(RawClient.startup(Map.of("user", "postgres", "database", "nosuchdb")));
            assertThat(c.readUntilReadyOrError()).containsEntry('M', "no such database: nosuchdb");
        }
        Supplier<List<String>> kept = () -> lines.get().filter(l -> l.contains("listening on 127") || l.contains("nosuchdb"))
                .map(l -> l.replaceAll("C-0x[0-9a-f]+", "C-ID").replaceAll(":[0-9]{2,5}", ":PORT")
                        .replaceAll("age=[0-9]+s", "age=Ns").replace(" replication=none", ""))
                .toList();
        Await.until(Duration.ofSeconds(10), () -> kept.get().size() >= 5, "five journal entries");
        return kept.get();
    }

    /** A native journal datagram's PRIORITY and MESSAGE fields as "P message". */
    private static String entry(String datagram) {
        String priority = "?";
        String message = "";
        for (String field : datagram.split("\n")) {
            if (field.startsWith("PRIORITY=")) {
                priority = field.substring(9);
            } else if (field.startsWith("MESSAGE=")) {
                message = field.substring(8);
            }
        }
        return priority + " " + message;
    }
}
