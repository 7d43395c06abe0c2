package io.sluice.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * systemd's {@code JOURNAL_STREAM}: the {@code device:inode} of the stream journald reads a
 * service's stderr from. When stderr is still that stream (not redirected since), PgBouncer built
 * with systemd hands each line to the journal with its level instead of printing it; Sluice then
 * prints it in journald's {@code <priority>message} form ({@code Log#setJournalStream}).
 */
final class JournalStream {
    static final Path STDERR = Path.of("/proc/self/fd/2");

    private JournalStream() {
    }

    /** True when {@code value} (JOURNAL_STREAM, may be null) names the file {@code stderr} is. */
    static boolean isStderr(String value, Path stderr) {
        if (value == null) {
            return false;
        }
        String[] parts = value.split(":");
        if (parts.length != 2) {
            return false;
        }
        try {
            Map<String, Object> file = Files.readAttributes(stderr, "unix:dev,ino");
            return Long.parseLong(parts[0]) == (Long) file.get("dev") && Long.parseLong(parts[1]) == (Long) file.get("ino");
        } catch (NumberFormatException | IOException | UnsupportedOperationException e) {
            return false; // not systemd's value, or no /proc: print as usual
        }
    }
}
