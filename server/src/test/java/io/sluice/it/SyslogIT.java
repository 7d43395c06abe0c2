package io.sluice.it;

import io.sluice.testkit.Await;
import io.sluice.testkit.DatagramInbox;
import io.sluice.testkit.Jdbc;
import io.sluice.testkit.PgCluster;
import io.sluice.testkit.ScratchDir;
import io.sluice.testkit.SluiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code syslog = 1} on Sluice and on Debian's PgBouncer 1.18, from the same pgbouncer.ini: the
 * datagrams that reach {@code /dev/log} (syslog(3)'s shape, the ident and facility the file
 * names, the pid the process logs under), that DEBUG lines stay out, and that a SIGHUP's new
 * ident and facility apply. The test plays the syslog daemon by binding {@code /dev/log}, so it
 * runs only where it may create that file and no syslog daemon owns it (CI's root).
 */
class SyslogIT {
    private static final Path DEV_LOG = Path.of("/dev/log");
    private static final String USERS = "\"postgres\" \"\"\n";
    private static final Pattern LOG_PID = Pattern.compile("^\\S+ \\S+ \\S+ \\[(\\d+)\\] ", Pattern.MULTILINE);
    private static final Pattern SYSLOG_TIME = Pattern.compile("^<(\\d+)>[A-Z][a-z]{2} [ 1-3]\\d \\d\\d:\\d\\d:\\d\\d ");
    private static DatagramInbox syslogd;

    @BeforeAll
    static void playTheSyslogDaemon() {
        assumeTrue(Files.isWritable(DEV_LOG.getParent()), "binding /dev/log needs root");
        assumeFalse(Files.exists(DEV_LOG, java.nio.file.LinkOption.NOFOLLOW_LINKS),
                "/dev/log belongs to this machine's syslog daemon");
        syslogd = DatagramInbox.bindPath(DEV_LOG);
    }

    @AfterAll
    static void stopPlaying() {
        if (syslogd != null) {
            syslogd.close();
        }
    }

    @Test
    void linesAtLogAndAboveReachDevLogWithTheFilesIdentAndFacilityAndASighupChangesThem() throws Exception {
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlog_stats = 0\nverbose = 1\n"
                + "syslog = 1\nsyslog_ident = sluice-it\nsyslog_facility = local3\n";
        Pooler.sameAnswers("syslog datagrams", ini, USERS, p -> {
            syslogd.clear();
            List<String> seen = new ArrayList<>();
            login(p);
            String pid = pid(p);
            seen.add(normal(await(p, "sluice-it[", "login attempt: db=postgres user=postgres"), pid));
            seen.add("DEBUG in the pooler's own log: " + p.log().contains(" DEBUG "));
            seen.add("debug severity sent: " + syslogd.received().stream().anyMatch(d -> d.startsWith("<159>")));

            p.editIni(text -> text.replace("sluice-it\n", "sluice-it2\n").replace("local3", "local4"));
            p.signal("HUP");
            seen.add(normal(await(p, "sluice-it2[", "login attempt: db=postgres user=postgres"), pid));
            return seen;
        },
                // local3 (19) * 8 + info (6); local4 (20) * 8 + info
                "<158> sluice-it[PID]: C-ID: postgres/postgres@127.0.0.1:PORT login attempt: db=postgres user=postgres tls=no",
                "DEBUG in the pooler's own log: true",
                "debug severity sent: false",
                "<166> sluice-it2[PID]: C-ID: postgres/postgres@127.0.0.1:PORT login attempt: db=postgres user=postgres tls=no");
    }

    /**
     * PgBouncer's {@code -d} needs a pidfile and a logfile or syslog: with syslog alone, its log
     * goes nowhere else, so the daemon's lines must reach /dev/log under the daemon's pid.
     */
    @Test
    void aDaemonWithSyslogAndNoLogfileLogsToSyslogUnderItsPid() throws Exception {
        Path run = ScratchDir.create("syslog-daemon");
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx")); // the service user's pidfile
        Path pidfile = run.resolve("sluice.pid");
        String ini = "[databases]\npostgres = host=127.0.0.1 port=" + PgCluster.shared().port() + "\n"
                + "[pgbouncer]\nauth_type = trust\nlog_stats = 0\npidfile = " + pidfile + "\n"
                + "syslog = 1\nsyslog_ident = sluice-daemon\n";
        syslogd.clear();
        try (SluiceProcess parent = new SluiceProcess(Pooler.JAR).jvmArgs("-Xmx128m").ini(ini).userlist(USERS)
                .args("-d").launch()) {
            assertThat(parent.waitFor(Duration.ofSeconds(60))).as("the parent returns once the daemon runs").isTrue();
            assertThat(parent.exitCode()).as(parent.output()).isZero();
            long pid = Long.parseLong(Files.readString(pidfile).strip());
            try {
                try (Connection c = Jdbc.connect("127.0.0.1", parent.port(), "postgres", "postgres", null, new java.util.Properties())) {
                    assertThat(Queries.run(c, "select 1")).isEqualTo("1");
                }
                String tag = "<30>"; // daemon (3) * 8 + info (6)
                Await.until(Duration.ofSeconds(15), () -> syslogd.received().stream().anyMatch(d ->
                        d.startsWith(tag) && d.contains(" sluice-daemon[" + pid + "]: C-0x")
                                && d.contains("login attempt: db=postgres user=postgres")),
                        "the daemon's login line on /dev/log under pid " + pid);
                assertThat(syslogd.received()).anyMatch(d -> d.contains(" sluice-daemon[" + pid + "]: process up: Sluice "));
            } finally {
                ProcessHandle.of(pid).ifPresent(h -> {
                    h.destroy();
                    h.onExit().join();
                });
                ScratchDir.delete(run);
            }
        }
    }

    private static void login(Pooler p) {
        try (Connection c = p.connect("postgres")) {
            assertThat(Queries.run(c, "select 1")).isEqualTo("1");
        } catch (java.sql.SQLException e) {
            throw new AssertionError(p + " login", e);
        }
    }

    /** Logs in until a datagram from {@code ident} with {@code words} has come (a SIGHUP applies in its own time). */
    private static String await(Pooler p, String ident, String words) {
        String[] found = new String[1];
        Await.until(Duration.ofSeconds(15), () -> {
            Optional<String> d = syslogd.received().stream().filter(x -> x.contains(ident) && x.contains(words)).findFirst();
            if (d.isEmpty()) {
                login(p);
                return false;
            }
            found[0] = d.get();
            return true;
        }, p + " sending '" + words + "' as " + ident + " to /dev/log");
        return found[0];
    }

    /** The pid in the pooler's own log lines: the one its syslog lines must carry. */
    private static String pid(Pooler p) {
        Matcher m = LOG_PID.matcher(p.log());
        assertThat(m.find()).as(p + " log has a line with a pid").isTrue();
        return m.group(1);
    }

    /** The datagram with its time, pid, client id and port masked; 1.25's " replication=none" dropped (1.18 has none). */
    private static String normal(String datagram, String pid) {
        Matcher time = SYSLOG_TIME.matcher(datagram);
        assertThat(time.find()).as("syslog(3) time stamp in " + datagram).isTrue();
        return time.replaceFirst("<$1> ")
                .replace("[" + pid + "]: ", "[PID]: ")
                .replaceAll("C-0x[0-9a-f]+", "C-ID")
                .replaceAll("@127\\.0\\.0\\.1:\\d+", "@127.0.0.1:PORT")
                .replace(" replication=none", "");
    }
}
