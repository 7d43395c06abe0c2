package io.sluice.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The syslog sink: syslog(3)'s datagram shape and PgBouncer's level and facility choices. */
class SyslogTest {
    private static final Instant T = Instant.parse("2026-12-03T09:05:07.600Z");

    /** Records datagrams, or fails while {@code failing} is set. */
    private static final class Recorder implements Syslog.Transport {
        final List<String> sent = new ArrayList<>();
        boolean failing;
        boolean closed;

        @Override
        public void send(byte[] datagram) throws IOException {
            if (failing) {
                throw new IOException("/dev/log: No such file or directory");
            }
            sent.add(new String(datagram, StandardCharsets.UTF_8));
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.fixed(T, ZoneId.of("Europe/Berlin")), 4242,
            new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void aLineIsOneDatagramInSyslog3sShapeWithoutTimePidOrLevelWordInTheMessage() {
        Recorder r = new Recorder();
        log.setSyslog(new Syslog("pgbouncer", 3, r));
        log.client(0x1f, "app", "alice", "127.0.0.1", 5000, "login attempt: db=app user=alice tls=no");
        // daemon (3) * 8 + info (6); local time; the day padded with a space as %e does
        assertThat(r.sent).containsExactly(
                "<30>Dec  3 10:05:07 pgbouncer[4242]: C-0x1f: app/alice@127.0.0.1:5000 login attempt: db=app user=alice tls=no");
    }

    @Test
    void levelsMapAsPgBouncersAndDebugAndNoiseAreNotSent() {
        Recorder r = new Recorder();
        log.setVerbose(2);
        log.setSyslog(new Syslog("sl", 19, r));
        log.fatal("f");
        log.error("e");
        log.warning("w");
        log.info("i");
        log.debug("d");
        log.noise("n");
        // local3 is 19: 152 + severity (crit 2, err 3, warning 4, info 6)
        assertThat(r.sent).extracting(s -> s.substring(0, s.indexOf('>') + 1) + s.substring(s.indexOf(": ") + 2))
                .containsExactly("<154>f", "<155>e", "<156>w", "<158>i");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("DEBUG d", "NOISE n");
    }

    @Test
    void aFailingSyslogIsReportedOnceInTheOtherSinksUntilItWorksAgain() {
        Recorder r = new Recorder();
        log.setSyslog(new Syslog("x", 3, r));
        r.failing = true;
        log.info("one");
        log.info("two");
        r.failing = false;
        log.info("three");
        r.failing = true;
        log.info("four");
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(stderr.lines().filter(l -> l.contains("WARNING could not write to syslog: /dev/log: No such file")))
                .hasSize(2);
        assertThat(stderr).contains("LOG one", "LOG two", "LOG three", "LOG four");
        assertThat(r.sent).singleElement().asString().endsWith(": three");
    }

    @Test
    void replacingOrClosingTheLogClosesTheSinkAndStopsSending() {
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        log.setSyslog(new Syslog("a", 3, first));
        log.setSyslog(new Syslog("b", 3, second));
        log.info("x");
        assertThat(first.closed).isTrue();
        assertThat(first.sent).isEmpty();
        assertThat(second.sent).singleElement().asString().contains(" b[4242]: x");
        log.setSyslog(null);
        log.info("y");
        assertThat(second.closed).isTrue();
        assertThat(second.sent).hasSize(1);
    }
}
