package io.sluice.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalStreamTest {
    @Test
    void matchesOnlyTheDeviceAndInodeOfTheFileStderrIs(@TempDir Path dir) throws Exception {
        Path stderr = Files.writeString(dir.resolve("stderr"), "");
        long dev = (Long) Files.getAttribute(stderr, "unix:dev");
        long ino = (Long) Files.getAttribute(stderr, "unix:ino");
        assertThat(JournalStream.isStderr(dev + ":" + ino, stderr)).isTrue();
        assertThat(JournalStream.isStderr(dev + ":" + (ino + 1), stderr)).as("stderr redirected since").isFalse();
        assertThat(JournalStream.isStderr(null, stderr)).isFalse();
        assertThat(JournalStream.isStderr("8:x", stderr)).isFalse();
        assertThat(JournalStream.isStderr(dev + ":" + ino, dir.resolve("gone"))).isFalse();
    }

    @Test
    void thisProcesssStderrIsFoundThroughProc() throws Exception {
        long dev = (Long) Files.getAttribute(JournalStream.STDERR, "unix:dev");
        long ino = (Long) Files.getAttribute(JournalStream.STDERR, "unix:ino");
        assertThat(JournalStream.isStderr(dev + ":" + ino, JournalStream.STDERR)).isTrue();
    }
}
