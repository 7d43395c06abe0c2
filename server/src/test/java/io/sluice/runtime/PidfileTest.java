package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.log.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PidfileTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Log log = new Log(Clock.systemUTC(), 1, new PrintStream(err, true, StandardCharsets.UTF_8));

    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    @Test
    void missingIsFreeAndWriteRemoveRoundTrip() {
        Pidfile pf = new Pidfile(dir.resolve("p.pid"));
        pf.checkFree(log);
        pf.write(12345);
        assertThat(pf.read()).isEqualTo(12345);
        assertThat(pf.path()).hasContent("12345");
        pf.remove();
        assertThat(pf.path()).doesNotExist();
    }

    @Test
    void stalePidfileOfDeadProcessIsReplaced() throws Exception {
        Path path = dir.resolve("p.pid");
        Files.writeString(path, deadPid() + "\n");
        Pidfile pf = new Pidfile(path);
        pf.checkFree(log);
        assertThat(path).doesNotExist();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("LOG stale pidfile, removing");
        pf.write(ProcessHandle.current().pid());
        assertThat(pf.read()).isEqualTo(ProcessHandle.current().pid());
    }

    @Test
    void livePidfileIsRefused() throws Exception {
        Path path = dir.resolve("p.pid");
        Files.writeString(path, ProcessHandle.current().pid() + "\n");
        assertThatThrownBy(() -> new Pidfile(path).checkFree(log))
                .isInstanceOf(FatalError.class)
                .hasMessage("pidfile '" + path + "' exists, another instance running?");
        assertThat(path).exists();
    }

    @Test
    void emptyOrGarbagePidfileCountsAsLocked() throws Exception {
        Path path = dir.resolve("p.pid");
        for (String content : new String[] {"", "abc\n", "0\n"}) {
            Files.writeString(path, content);
            assertThatThrownBy(() -> new Pidfile(path).checkFree(log))
                    .hasMessageEndingWith("exists, another instance running?");
        }
    }

    @Test
    void removeOnlyWhatWeWrote() throws Exception {
        Path path = dir.resolve("p.pid");
        Files.writeString(path, "1\n");
        new Pidfile(path).remove();
        assertThat(path).exists();
        assertThatThrownBy(() -> new Pidfile(path).write(2)).hasMessageContaining("could not open pidfile");
    }

    @Test
    void aHandoverSuccessorReplacesTheOldPidAndTheOldProcessLeavesTheFileAlone() throws Exception {
        Path path = dir.resolve("p.pid");
        long old = ProcessHandle.current().pid();
        Pidfile oldOne = new Pidfile(path);
        oldOne.write(old);
        Pidfile successor = new Pidfile(path);
        // another live pid is still refused; exactly the one handed over from is accepted
        assertThatThrownBy(() -> successor.checkFree(log, old + 1)).hasMessageEndingWith("another instance running?");
        assertThat(successor.checkFree(log, old)).isTrue();
        successor.write(54321, true);
        assertThat(path).hasContent("54321");
        assertThat(dir.toFile().list()).containsExactly("p.pid");
        oldOne.remove();
        assertThat(path).hasContent("54321");
        successor.remove();
        assertThat(path).doesNotExist();
    }

    @Test
    void noPidfileToTakeOverIsFine() {
        assertThat(new Pidfile(dir.resolve("p.pid")).checkFree(log, ProcessHandle.current().pid())).isFalse();
    }
}
