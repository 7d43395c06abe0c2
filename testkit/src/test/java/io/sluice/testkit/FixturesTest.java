package io.sluice.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The small pure fixtures: free ports, bounded waits, ini rewriting, userlist lines. */
class FixturesTest {

    @Test
    void freePortsAreNeverHandedTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            int port = FreePorts.next();
            assertThat(port).isBetween(FreePorts.LOW, FreePorts.HIGH).isLessThan(32768);
            assertThat(seen.add(port)).as("port %d handed twice", port).isTrue();
        }
    }

    @Test
    void awaitReturnsOnceTheConditionHolds() {
        AtomicInteger polls = new AtomicInteger();
        Await.until(Duration.ofSeconds(10), () -> polls.incrementAndGet() >= 3, "third poll");
        assertThat(polls.get()).isEqualTo(3);
    }

    @Test
    void awaitFailsNamingTheConditionOnTimeout() {
        assertThatThrownBy(() -> Await.until(Duration.ofMillis(20), () -> false, "the moon to turn blue"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the moon to turn blue");
    }

    @Test
    void iniDefaultsGoFirstAndForcedSettingsLastInThePgbouncerSection() {
        String ini = "[databases]\nd = host=x\n[pgbouncer]\nlisten_port = 1\nunix_socket_dir =\n[users]\nu = pool_mode=session\n";
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("unix_socket_dir", "/tmp/x");
        String out = IniOverrides.apply(ini, defaults, Map.of("listen_port", "7"));
        assertThat(out).isEqualTo("[databases]\nd = host=x\n[pgbouncer]\n; defaults from the sluice testkit\n"
                + "unix_socket_dir = /tmp/x\nlisten_port = 1\nunix_socket_dir =\n; forced by the sluice testkit\n"
                + "listen_port = 7\n[users]\nu = pool_mode=session\n");
    }

    @Test
    void iniWithoutPgbouncerSectionGetsOne() {
        String out = IniOverrides.apply("[databases]\n", Map.of(), Map.of("listen_port", "7"));
        assertThat(out).isEqualTo("[databases]\n[pgbouncer]\n; forced by the sluice testkit\nlisten_port = 7\n");
    }

    @Test
    void orphanSweepRemovesDirsOfDeadOwnersOnly(@TempDir Path base)
            throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path orphan = Files.createDirectories(base.resolve("sluice-srv-dead"));
        Files.writeString(orphan.resolve(Orphans.OWNER_FILE), Long.toString(gone.pid()));
        Path live = Files.createDirectories(base.resolve("sluice-pgb-live"));
        Files.writeString(live.resolve(Orphans.OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
        Path foreign = Files.createDirectories(base.resolve("other-dir"));

        Orphans.sweep(base);

        assertThat(orphan).doesNotExist();
        assertThat(live).exists();
        assertThat(foreign).exists();
    }

    @Test
    void userlistMd5EntryHashesPasswordPlusUser() {
        // PostgreSQL's md5 secret for user "postgres", password "postgres".
        assertThat(Userlist.md5Entry("postgres", "postgres"))
                .isEqualTo("\"postgres\" \"md53175bce1d3201d16594cebf9d7eb3f9d\"\n");
        assertThat(Userlist.entry("a\"b", "pw")).isEqualTo("\"a\"\"b\" \"pw\"\n");
    }
}
