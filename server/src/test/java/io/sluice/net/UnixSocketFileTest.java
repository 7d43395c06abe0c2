package io.sluice.net;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 17: the unix socket path with and without so_reuseport, and a restart's two processes. */
class UnixSocketFileTest {
    @TempDir
    Path dir;

    @Test
    void aLiveSocketStopsTheStartAsInPgBouncerUnlessSoReuseportTakesItOver() throws IOException {
        Path path = dir.resolve(".s.PGSQL.6432");
        List<String> info = new ArrayList<>();
        try (ServerSocketChannel old = listen(path)) {
            assertThatThrownBy(() -> UnixSocketFile.clearForBind(path, false, info::add))
                    .hasMessage("unix socket is in use, cannot continue");
            assertThat(path).exists();
            Object oldKey = UnixSocketFile.fileKey(path);

            UnixSocketFile.clearForBind(path, true, info::add);
            assertThat(path).as("replaced only once the successor's socket is bound").exists();
            assertThat(info).singleElement().asString().contains("taking its path over (so_reuseport)");
            Path bound = UnixSocketFile.bindName(path);
            try (ServerSocketChannel successor = listen(bound)) {
                Files.move(bound, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                UnixSocketFile.deleteIfOurs(path, oldKey);
                assertThat(path).as("the old process leaves its successor's file alone").exists();
                UnixSocketFile.deleteIfOurs(path, UnixSocketFile.fileKey(path));
                assertThat(path).doesNotExist();
            }
        }
    }

    @Test
    void aFileNobodyListensOnIsStaleAndGoes() throws IOException {
        Path path = dir.resolve(".s.PGSQL.6432");
        listen(path).close(); // the file stays behind, as after a crash
        assertThat(path).exists();
        UnixSocketFile.clearForBind(path, false, line -> { });
        assertThat(path).doesNotExist();
        UnixSocketFile.clearForBind(Files.createDirectories(dir.resolve("sub")).resolve("none"), false, line -> { });
    }

    private static ServerSocketChannel listen(Path path) throws IOException {
        ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        ch.bind(UnixDomainSocketAddress.of(path));
        return ch;
    }
}
