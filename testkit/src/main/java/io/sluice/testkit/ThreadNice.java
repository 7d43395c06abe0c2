package io.sluice.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A thread's or process's nice value, as Linux reports it in /proc. */
public final class ThreadNice {
    private ThreadNice() {
    }

    /**
     * Field 19 of a {@code /proc/PID/stat} or {@code /proc/PID/task/TID/stat} file, counted after
     * the parenthesised name (which may hold spaces).
     */
    public static int of(Path statFile) throws IOException {
        String stat = Files.readString(statFile);
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
    }
}
