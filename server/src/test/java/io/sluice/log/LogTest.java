package io.sluice.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTest {
    private static final Instant T = Instant.parse("2026-11-30T10:37:27.600Z");
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.fixed(T, ZoneOffset.UTC), 4242, new PrintStream(err, true, StandardCharsets.UTF_8));

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void lineShapeIsPgBouncers() {
        log.info("process up");
        assertThat(stderr()).isEqualTo("2026-11-30 10:37:27.600 UTC [4242] LOG process up\n");
    }

    @Test
    void onJournaldsStreamALineIsItsPriorityAndMessageOnly() {
        log.setJournalStream(true);
        log.client(Level.WARNING, 0x1f, "app", "alice", "127.0.0.1", 5000, "pooler error: no such database: x");
        log.info("process up");
        log.error("e");
        // journald keeps time and pid itself; "<N>" is its stream protocol's level prefix
        assertThat(stderr()).isEqualTo("<4>C-0x1f: app/alice@127.0.0.1:5000 pooler error: no such database: x\n"
                + "<6>process up\n<3>e\n");
    }

    @Test
    void zoneShortNameLikeStrftimePercentZ() {
        Log berlin = new Log(Clock.fixed(T, ZoneId.of("Europe/Berlin")), 1, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(berlin.format(Level.LOG, "x")).isEqualTo("2026-11-30 11:37:27.600 CET [1] LOG x");
        Log utc = new Log(Clock.fixed(T, ZoneId.of("UTC")), 1, System.err);
        assertThat(utc.format(Level.LOG, "x")).startsWith("2026-11-30 10:37:27.600 UTC ");
    }

    @Test
    void levelWords() {
        log.setVerbose(2);
        log.fatal("a");
        log.error("b");
        log.warning("c");
        log.info("d");
        log.debug("e");
        log.noise("f");
        assertThat(stderr().lines().map(l -> l.split(" ")[4])).containsExactly(
                "FATAL", "ERROR", "WARNING", "LOG", "DEBUG", "NOISE");
    }

    @Test
    void verbosityFilters() {
        AtomicBoolean built = new AtomicBoolean();
        log.debug("hidden");
        log.debug(() -> {
            built.set(true);
            return "hidden";
        });
        log.noise("hidden");
        assertThat(stderr()).isEmpty();
        assertThat(built).isFalse();

        log.setVerbose(1);
        log.debug("shown-debug");
        log.noise("hidden");
        assertThat(stderr()).contains("DEBUG shown-debug").doesNotContain("NOISE");

        log.setVerbose(2);
        log.noise(() -> "shown-noise");
        assertThat(stderr()).contains("NOISE shown-noise");
        assertThat(log.enabled(Level.LOG)).isTrue();
    }

    @Test
    void clientAndServerPrefixes() {
        log.client(0x1fL, "app", "alice", "127.0.0.1", 50000, "login attempt: db=app user=alice tls=no");
        log.server(0xabcdefL, "app", "alice", "127.0.0.1", 5432, "new connection to server (from 127.0.0.1:40000)");
        log.client(Level.WARNING, 2, null, null, "unix", 6432, "closing because: client_login_timeout");
        assertThat(stderr().lines()).containsExactly(
                "2026-11-30 10:37:27.600 UTC [4242] LOG C-0x1f: app/alice@127.0.0.1:50000 login attempt: db=app user=alice tls=no",
                "2026-11-30 10:37:27.600 UTC [4242] LOG S-0xabcdef: app/alice@127.0.0.1:5432 new connection to server (from 127.0.0.1:40000)",
                "2026-11-30 10:37:27.600 UTC [4242] WARNING C-0x2: (nodb)/(nouser)@unix:6432 closing because: client_login_timeout");
    }

    @Test
    void quietStillWritesLogfileAndReopenSwitchesFiles(@TempDir Path dir) throws Exception {
        Path first = dir.resolve("a.log");
        Path second = dir.resolve("b.log");
        Files.writeString(first, "old line\n");
        log.setQuiet(true);
        log.reopen(first);
        log.info("one");
        Files.move(first, dir.resolve("a.log.1")); // logrotate, then SIGHUP
        log.reopen(second);
        log.info("two");
        log.close();
        log.info("three");
        assertThat(stderr()).isEmpty();
        assertThat(Files.readString(dir.resolve("a.log.1"))).isEqualTo(
                "old line\n2026-11-30 10:37:27.600 UTC [4242] LOG one\n");
        assertThat(Files.readString(second)).isEqualTo("2026-11-30 10:37:27.600 UTC [4242] LOG two\n");
        assertThat(log.logfile()).isNull();
    }

    @Test
    void pidCanBeChanged() {
        log.setPid(7);
        log.warning("w");
        assertThat(stderr()).isEqualTo("2026-11-30 10:37:27.600 UTC [7] WARNING w\n");
    }
}
